/// Why a command failed. Printed as `error: <description>` on standard error: the description
/// names the command, the key path or argument, and what was expected.
enum CommandError: Error, Equatable, CustomStringConvertible {
  /// A line with nothing on it (not an error to the user: blank lines are skipped).
  case empty
  case unknownCommand(String, suggestion: String?)
  /// The wrong number of arguments: the name as typed, and the command's usage.
  case usage(command: String, usage: String)
  case badArgument(command: String, message: String)
  case unreadableLine(String)
  /// A failure of a command on a key path or file, with the underlying message.
  case failed(command: String, subject: String?, message: String)

  var description: String {
    switch self {
    case .empty: return "empty command"
    case .unknownCommand(let name, let suggestion):
      let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
      return "unknown command \"\(shown)\"" + (suggestion.map { "; did you mean \"\($0)\"?" } ?? "")
        + " (type help for the list)"
    case .usage(let command, let usage):
      return "\(command): wrong arguments; usage: \(usage)"
    case .badArgument(let command, let message):
      return "\(command): \(message)"
    case .unreadableLine(let message):
      return message
    case .failed(let command, let subject, let message):
      return [command, subject].compactMap { $0 }.joined(separator: " ") + ": " + message
    }
  }
}
