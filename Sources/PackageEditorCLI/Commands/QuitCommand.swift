/// `quit`, `exit`: leaves the editor; `quit!`, `exit!`: leaves even with unsaved changes.
///
/// The session does not run it: it reports it to the loop that reads lines, which decides
/// whether to ask again (see ``Editor``).
struct QuitCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "quit", aliases: ["exit", "quit!", "exit!"], usage: "quit | exit | quit!",
    summary: "leave; with unsaved changes, asks again first",
    details: [
      "End of input (Ctrl-D) is quit too. At the prompt, quit with unsaved changes",
      "says so and leaves when asked again; quit! leaves at once.",
    ])

  /// Whether to leave even with unsaved changes.
  let force: Bool

  init(force: Bool) { self.force = force }

  init(name: String, arguments: [String]) throws(CommandError) {
    force = name.hasSuffix("!")
  }

  func run(in session: EditorSession) {}
}
