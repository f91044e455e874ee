import PackageModel

/// What `help` prints, read from the commands' declarations (``CommandTable``).
enum HelpText {
  /// The text of `help`, `help <command>` or `help keys`.
  static func text(for topic: String?) throws(CommandError) -> [String] {
    switch topic {
    case nil:
      let configurations = CommandTable.commands.map { $0.configuration }
      let width = configurations.map(\.usage.count).max()!
      return ["commands:"]
        + configurations.map {
          "  " + $0.usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.summary
        }
        + ["type help <command> for one command, help keys for the key paths you can set"]
    case "keys"?:
      return ["settable key paths:"]
        + Package.allObservableKeys.attributeKeyPaths(settableOnly: true).map { "  " + $0 }
        + [
          "readable too: contents.<index>.title|quantity|weight, contents.@count, contents.@sum.weight, …"
        ]
    case let name?:
      guard let configuration = CommandTable.command(named: name)?.configuration else {
        throw .badArgument(
          command: "help",
          message: "no command \"\(name)\""
            + (CommandTable.closest(to: name).map { "; did you mean \"\($0)\"?" } ?? ""))
      }
      return ["usage: " + configuration.usage, configuration.summary]
    }
  }
}
