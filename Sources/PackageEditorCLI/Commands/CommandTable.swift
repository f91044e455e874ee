import KVOLite

/// Every command of the editor, in the order `help` lists them, and how a line's words become
/// one of them.
enum CommandTable {
  /// The commands' declarations.
  static let commands: [any EditorCommand.Type] = [
    HelpCommand.self, ShowCommand.self, GetCommand.self, SetCommand.self, AddCommand.self,
    InsertCommand.self, RemoveCommand.self, WatchCommand.self, UnwatchCommand.self,
    WatchesCommand.self, UndoCommand.self, RedoCommand.self, SaveCommand.self,
    SaveAsCommand.self, LoadCommand.self, FileCommand.self, SourceCommand.self, NewCommand.self,
    SummaryCommand.self, QuitCommand.self,
  ]

  /// Every name and alias.
  static let allNames: [String] = commands.flatMap { $0.configuration.names }

  /// The names and aliases `help` shows, for completion.
  static let shownNames: [String] = commands.flatMap { $0.configuration.shownNames }

  /// Each name and alias, with its command (the first command to claim a name keeps it).
  private static let byName: [String: any EditorCommand.Type] = {
    var table: [String: any EditorCommand.Type] = [:]
    for command in commands {
      for name in command.configuration.names where table[name] == nil { table[name] = command }
    }
    return table
  }()

  /// The command named or aliased `name`: one lookup (a line's command is found on every line).
  static func command(named name: String) -> (any EditorCommand.Type)? {
    byName[name]
  }

  /// Parses the words of a line (the first is the command name).
  /// - Throws: ``CommandError`` for an unknown command (with a close match) or wrong arguments
  ///   (with the command's usage).
  static func parse(_ words: [String]) throws(CommandError) -> any EditorCommand {
    guard let name = words.first else { throw .empty }
    guard let command = command(named: name) else {
      throw .unknownCommand(name, suggestion: closest(to: name))
    }
    let arguments = Array(words.dropFirst())
    let configuration = command.configuration
    guard configuration.arguments.contains(arguments.count) else {
      // Words past a last argument that is a text value (`set`'s): a value with spaces, not
      // quoted.
      if arguments.count > configuration.arguments.upperBound,
        configuration.argumentKinds.count == configuration.arguments.upperBound,
        configuration.argumentKinds.last == .text
      {
        let count = configuration.arguments.upperBound
        let value = arguments[(count - 1)...].joined(separator: " ")
        let quoted = ([name] + arguments.prefix(count - 1) + ["\"\(value)\""]).joined(
          separator: " ")
        throw .badArgument(
          command: name, message: "a value with spaces must be quoted: \(quoted)")
      }
      throw .usage(command: name, usage: configuration.usage)
    }
    return try command.init(name: name, arguments: arguments)
  }

  /// The command name closest to `name`, if one is close (aliases ending in `!` are not
  /// suggested: a typo should never suggest leaving without saving).
  static func closest(to name: String) -> String? {
    Suggestion.closest(to: name, among: allNames.filter { !$0.hasSuffix("!") })
  }
}
