import KVOLite
import KVOLiteTestSupport
import Testing

@testable import PackageEditorCLI

@Suite("Command parser")
struct CommandParserTests {
  @Test(
    "valid commands",
    arguments: [
      (["help"], HelpCommand(topic: nil) as any EditorCommand),
      (["help", "keys"], HelpCommand(topic: "keys")),
      (["get", "a.b"], GetCommand(keyPath: "a.b")),
      (["set", "a", "b c"], SetCommand(keyPath: "a", value: "b c")),
      (["add", "Lamp"], AddCommand(title: "Lamp", quantity: 1, weight: 0)),
      (["add", "Lamp", "2", "1.5"], AddCommand(title: "Lamp", quantity: 2, weight: 1.5)),
      (["insert", "0", "Pen", "3"], InsertCommand(index: 0, title: "Pen", quantity: 3, weight: 0)),
      (["remove", "2"], RemoveCommand(index: 2)),
      (["watch", "x"], WatchCommand(keyPath: "x", options: [.old, .new])),
      (
        ["watch", "x", "initial", "prior"],
        WatchCommand(keyPath: "x", options: [.initial, .prior, .old, .new])
      ),
      (["unwatch", "all"], UnwatchCommand(keyPath: nil)),
      (["unwatch", "x"], UnwatchCommand(keyPath: "x")),
      (["save"], SaveCommand(file: nil)),
      (["load", "f.json"], LoadCommand(file: "f.json")),
      (["exit"], QuitCommand(force: false)),
      (["quit!"], QuitCommand(force: true)),
      (["exit!"], QuitCommand(force: true)),
      (["watches"], WatchesCommand()),
    ])
  func valid(words: [String], command: any EditorCommand) throws {
    #expect(AnyHashable(try CommandTable.parse(words)) == AnyHashable(command))
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
      (
        ["add", "Lamp", "1", "heavy"],
        #"add: the weight must be a number of kilograms, not "heavy""#
      ),
      (["remove", "-1"], #"remove: the index must be a whole number, 0 or more, not "-1""#),
      (["insert", "x", "Pen"], #"insert: the index must be a whole number, 0 or more, not "x""#),
      (["watch", "x", "later"], #"watch: unknown option "later" (use initial, old, new, prior)"#),
      (["quit", "now"], "quit: wrong arguments; usage: quit | exit | quit!"),
      (["exit!", "now"], "exit!: wrong arguments; usage: quit | exit | quit!"),
      (["quiy!"], #"unknown command "quiy!"; did you mean "quit"? (type help for the list)"#),
    ])
  func invalid(words: [String], message: String) {
    do {
      _ = try CommandTable.parse(words)
      Issue.record("parsed \(words)")
    } catch {
      #expect(error.description == message)
    }
  }
}

@Suite("Command declarations")
struct CommandDeclarationTests {
  @Test(
    "every name and alias is declared once, and help, completion and suggestions read the declarations"
  )
  func declarations() throws {
    #expect(Set(CommandTable.allNames).count == CommandTable.allNames.count)
    let help = try HelpText.text(for: nil)
    for command in CommandTable.commands {
      let configuration = command.configuration
      // The usage, then the summary on the same line or (a long usage) the next.
      let line = try #require(
        help.firstIndex {
          $0 == "  " + configuration.usage || $0.hasPrefix("  " + configuration.usage + " ")
        })
      #expect(
        help[line].hasSuffix(configuration.summary)
          || help[line + 1] == String(repeating: " ", count: HelpText.summaryColumn)
            + configuration.summary
      )
      #expect(
        try HelpText.text(for: configuration.name) == [
          "usage: " + configuration.usage, configuration.summary,
        ] + configuration.details)
      let session = EditorSession(package: .sample(), file: nil, output: CapturedOutput())
      // The words of the usage that name the command: what Tab offers.
      let shown = configuration.usage.split { " |[]<>".contains($0) }.map(String.init)
        .filter(configuration.names.contains)
      #expect(shown.first == configuration.name)
      for name in configuration.names {
        #expect(
          CommandTable.command(named: name).map(ObjectIdentifier.init) == ObjectIdentifier(command))
        #expect(
          session.completions(for: String(name.prefix(name.count - 1))).candidates.contains(name)
            == shown.contains(name))
      }
    }
    #expect(
      help.count
        == CommandTable.commands.count + 2
        + CommandTable.commands.filter { $0.configuration.usage.count + 4 > HelpText.summaryColumn }
        .count)
    #expect(try HelpText.text(for: "exit") == HelpText.text(for: "quit"))
  }

  @Test("argument kinds: repeated past the list, none past the most arguments")
  func argumentKinds() {
    let watch = WatchCommand.configuration
    #expect(watch.kind(at: 0) == .keyPath)
    #expect(watch.kind(at: 4) == .choice(["initial", "old", "new", "prior"]))
    #expect(watch.kind(at: 5) == nil)
    #expect(SummaryCommand.configuration.kind(at: 0) == nil)
    #expect(InsertCommand.configuration.kind(at: 3) == .text)
  }
}

extension CommandDeclarationTests {
  @Test("Tab offers the command names help shows: quit | exit | quit!, and no hidden alias")
  func completionMatchesHelp() throws {
    let session = EditorSession(package: .sample(), file: nil, output: CapturedOutput())
    #expect(try HelpText.text(for: "quit").first == "usage: quit | exit | quit!")
    #expect(session.completions(for: "ex").candidates == ["exit"])
    #expect(session.completions(for: "exit").candidates == ["exit"])
    #expect(session.completions(for: "qu").candidates == ["quit", "quit!"])
    #expect(
      session.completions(for: "s").candidates == [
        "save", "save!", "saveas", "set", "show", "source", "summary",
      ])
    // Hidden aliases still run their command.
    #expect(AnyHashable(try CommandTable.parse(["exit!"])) == AnyHashable(QuitCommand(force: true)))
    #expect(AnyHashable(try CommandTable.parse(["?"])) == AnyHashable(HelpCommand(topic: nil)))
  }
}
