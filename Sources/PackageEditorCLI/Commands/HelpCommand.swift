/// `help [command | keys]`: lists the commands, shows one command's syntax, or lists the
/// settable keys.
struct HelpCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "help", aliases: ["?"], usage: "help [command | keys]",
    summary: "list the commands, or show one command or the keys",
    arguments: 0...1, argumentKinds: [.helpTopic])

  /// The command or topic asked about; `nil` for the list of commands.
  let topic: String?

  init(topic: String?) { self.topic = topic }

  init(name: String, arguments: [String]) throws(CommandError) {
    topic = arguments.first
  }

  func run(in session: EditorSession) throws(CommandError) {
    try HelpText.text(for: topic).forEach(session.output.line)
  }
}
