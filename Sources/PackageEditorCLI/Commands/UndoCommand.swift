/// `undo`: undoes the last command that changed the package.
struct UndoCommand: ArgumentlessCommand {
  static let configuration = CommandConfiguration(
    name: "undo", usage: "undo", summary: "undo the last command that changed the package")

  func run(in session: EditorSession) throws(CommandError) {
    guard session.history.undo() else {
      throw .badArgument(command: "undo", message: "nothing to undo")
    }
  }
}
