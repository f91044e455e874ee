/// One command of the editor, declared in one place: its name, aliases, usage and help text
/// (``configuration``), how its arguments are parsed (``init(name:arguments:)``) and what it
/// does (``run(in:)``).
///
/// ``CommandTable`` lists every command; `help`, Tab completion and "did you mean" read the
/// same declarations, so a command added there is documented, completed and suggested at once.
/// A command is a value: parsing has no effect, and a parsed command can be compared in tests.
protocol EditorCommand: Hashable, Sendable {
  /// The command's name, aliases, usage, help text, argument count and argument kinds.
  static var configuration: CommandConfiguration { get }

  /// Parses the arguments (the words after the command's name). `name` is the name or alias
  /// that was typed. The table has already checked the number of arguments against
  /// ``CommandConfiguration/arguments``.
  /// - Throws: ``CommandError/badArgument(command:message:)`` for an argument of the wrong form.
  init(name: String, arguments: [String]) throws(CommandError)

  /// Runs the command on `session`. The session makes it one undo step and prints the
  /// summary afterwards if it changed.
  /// - Throws: ``CommandError`` if the command failed; it has then changed nothing.
  func run(in session: EditorSession) throws(CommandError)
}
