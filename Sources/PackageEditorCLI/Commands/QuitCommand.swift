/// `quit`, `exit`: leaves the editor; `quit!`, `exit!`: leaves even with unsaved changes.
///
/// The session does not run it: it reports it to the loop that reads lines, which decides
/// whether to ask again (see ``Editor``).
struct QuitCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "quit", aliases: ["exit", "quit!", "exit!"], usage: "quit | exit | quit!",
    summary:
      "leave (end of input does too); with unsaved changes, interactive mode asks again first (quit! leaves at once)"
  )

  /// Whether to leave even with unsaved changes.
  let force: Bool

  init(force: Bool) { self.force = force }

  init(name: String, arguments: [String]) throws(CommandError) {
    force = name.hasSuffix("!")
  }

  func run(in session: EditorSession) {}
}
