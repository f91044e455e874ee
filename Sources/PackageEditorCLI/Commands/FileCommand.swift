/// `file`: says which file is being edited and whether there are unsaved changes, as `:file`
/// (Ctrl-G) does in vi.
struct FileCommand: ArgumentlessCommand {
  static let configuration = CommandConfiguration(
    name: "file", usage: "file", summary: "say which file is being edited, and if it is saved")

  func run(in session: EditorSession) {
    let state =
      session.hasUnsavedChanges
      ? "unsaved changes" : session.file == nil ? "save <file> to keep it" : "saved"
    session.output.line("\(session.editingDescription) (\(state))")
  }
}
