/// `new`: empties the package, as one undoable change.
struct NewCommand: ArgumentlessCommand {
  static let configuration = CommandConfiguration(
    name: "new", usage: "new", summary: "start an empty package (undoable)")

  func run(in session: EditorSession) {
    session.package.reset()
  }
}
