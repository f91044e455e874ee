/// `redo`: redoes the last undone command.
struct RedoCommand: ArgumentlessCommand {
  static let configuration = CommandConfiguration(
    name: "redo", usage: "redo", summary: "redo the last undone command")

  func run(in session: EditorSession) throws(CommandError) {
    guard session.history.redo() else {
      throw .badArgument(command: "redo", message: "nothing to redo")
    }
  }
}
