import PackageModel

/// What `help` prints, read from the commands' declarations (``CommandTable``). Every line
/// fits 80 columns: a usage too long for its column puts its summary on the next line.
enum HelpText {
  /// The column the summaries start at in the list of commands.
  static let summaryColumn = 28

  /// The text of `help`, `help <command>` or `help keys`.
  static func text(for topic: String?) throws(CommandError) -> [String] {
    switch topic {
    case nil:
      var lines = ["commands:"]
      for configuration in CommandTable.commands.map({ $0.configuration }) {
        let usage = "  " + configuration.usage
        if usage.count + 2 <= summaryColumn {
          lines.append(
            usage.padding(toLength: summaryColumn, withPad: " ", startingAt: 0)
              + configuration.summary)
        } else {
          lines.append(usage)
          lines.append(String(repeating: " ", count: summaryColumn) + configuration.summary)
        }
      }
      return lines + ["type help <command> for one command, help keys for the key paths"]
    case "keys"?:
      return ["settable key paths:"]
        + Package.allObservableKeys.attributeKeyPaths(settableOnly: true).map { "  " + $0 }
        + [
          "  contents.<index>.title, contents.<index>.quantity, contents.<index>.weight",
          "readable too: totalWeight, summary, recipient.fullName, contents.@count, …",
        ]
    case let name?:
      guard let configuration = CommandTable.command(named: name)?.configuration else {
        throw .badArgument(
          command: "help",
          message: "no command \"\(name)\""
            + (CommandTable.closest(to: name).map { "; did you mean \"\($0)\"?" } ?? ""))
      }
      return ["usage: " + configuration.usage, configuration.summary] + configuration.details
    }
  }
}
