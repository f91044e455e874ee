import PackageModel

/// What `help` prints.
enum HelpText {
  /// Each command's syntax and what it does, in the order `help` lists them.
  static let commands: [(name: String, usage: String, summary: String)] = [
    ("help", "help [command | keys]", "list the commands, show one command's syntax, or list the settable keys"),
    ("show", "show", "print every key path and value, and the contents with their indexes"),
    ("get", "get <keyPath>", "print one value (operators allowed: get contents.@sum.weight)"),
    ("set", "set <keyPath> <value>", "set an attribute; quote values with spaces: set recipient.postalAddress.street \"1 Main St\""),
    ("add", "add <title> [quantity] [weight]", "append a content line (quantity 1 and weight 0 kg by default)"),
    ("insert", "insert <index> <title> [quantity] [weight]", "insert a content line at an index"),
    ("remove", "remove <index>", "remove the content line at an index"),
    ("watch", "watch <keyPath> [initial] [old] [new] [prior]", "print every change of a key path (old new by default)"),
    ("unwatch", "unwatch <keyPath> | unwatch all", "stop watching a key path, or all of them"),
    ("watches", "watches", "list the watched key paths"),
    ("undo", "undo", "undo the last command that changed the package"),
    ("redo", "redo", "redo the last undone command"),
    ("save", "save [file]", "save to a file (by default the file being edited)"),
    ("load", "load <file>", "load a file (undoable)"),
    ("new", "new", "start an empty package (undoable)"),
    ("summary", "summary", "print the summary line"),
    ("quit", "quit | exit | quit!", "leave (end of input does too); with unsaved changes, interactive mode asks again first (quit! leaves at once)"),
  ]

  /// The syntax of `command`.
  static func usage(of command: String) -> String {
    let name = command == "exit" ? "quit" : command
    return commands.first { $0.name == name }?.usage ?? command
  }

  /// The text of `help`, `help <command>` or `help keys`.
  static func text(for topic: String?) throws(CommandError) -> [String] {
    switch topic {
    case nil:
      let width = commands.map(\.usage.count).max()!
      return ["commands:"]
        + commands.map { "  " + $0.usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.summary }
        + ["type help <command> for one command, help keys for the key paths you can set"]
    case "keys"?:
      return ["settable key paths:"]
        + Package.observableKeys.attributeKeyPaths(settableOnly: true).map { "  " + $0 }
        + ["readable too: contents.<index>.title|quantity|weight, contents.@count, contents.@sum.weight, …"]
    case let name?:
      let lookup = name == "exit" ? "quit" : name
      guard let entry = commands.first(where: { $0.name == lookup }) else {
        throw .badArgument(
          command: "help",
          message: "no command \"\(name)\"" + (Command.closest(to: name).map { "; did you mean \"\($0)\"?" } ?? ""))
      }
      return ["usage: " + entry.usage, entry.summary]
    }
  }
}
