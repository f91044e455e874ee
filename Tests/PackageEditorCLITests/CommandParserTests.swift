@testable import PackageEditorCLI
import KVOLite
import Testing

@Suite("Command parser")
struct CommandParserTests {
  @Test(
    "valid commands",
    arguments: [
      (["help"], Command.help(topic: nil)),
      (["help", "keys"], .help(topic: "keys")),
      (["get", "a.b"], .get(keyPath: "a.b")),
      (["set", "a", "b c"], .set(keyPath: "a", value: "b c")),
      (["add", "Lamp"], .add(title: "Lamp", quantity: 1, weight: 0)),
      (["add", "Lamp", "2", "1.5"], .add(title: "Lamp", quantity: 2, weight: 1.5)),
      (["insert", "0", "Pen", "3"], .insert(index: 0, title: "Pen", quantity: 3, weight: 0)),
      (["remove", "2"], .remove(index: 2)),
      (["watch", "x"], .watch(keyPath: "x", options: [.old, .new])),
      (["watch", "x", "initial", "prior"], .watch(keyPath: "x", options: [.initial, .prior])),
      (["unwatch", "all"], .unwatch(keyPath: nil)),
      (["unwatch", "x"], .unwatch(keyPath: "x")),
      (["save"], .save(file: nil)),
      (["load", "f.json"], .load(file: "f.json")),
      (["exit"], .quit(force: false)),
      (["quit!"], .quit(force: true)),
      (["exit!"], .quit(force: true)),
      (["watches"], .watches),
    ])
  func valid(words: [String], command: Command) throws {
    #expect(try Command(words: words) == command)
  }

  @Test(
    "invalid commands name the problem",
    arguments: [
      (["sett", "x"], #"unknown command "sett"; did you mean "set"? (type help for the list)"#),
      (["frobnicate"], #"unknown command "frobnicate" (type help for the list)"#),
      (["set", "x"], "set: wrong arguments; usage: set <keyPath> <value>"),
      (["get"], "get: wrong arguments; usage: get <keyPath>"),
      (["undo", "2"], "undo: wrong arguments; usage: undo"),
      (["add", "Lamp", "two"], #"add: the quantity must be a whole number, not "two""#),
      (["add", "Lamp", "1", "heavy"], #"add: the weight must be a number of kilograms, not "heavy""#),
      (["remove", "-1"], #"remove: the index must be a whole number, 0 or more, not "-1""#),
      (["insert", "x", "Pen"], #"insert: the index must be a whole number, 0 or more, not "x""#),
      (["watch", "x", "later"], #"watch: unknown option "later" (use initial, old, new, prior)"#),
      (["quit", "now"], "quit: wrong arguments; usage: quit | exit | quit!"),
    ])
  func invalid(words: [String], message: String) {
    do {
      _ = try Command(words: words)
      Issue.record("parsed \(words)")
    } catch {
      #expect(error.description == message)
    }
  }
}
