import PackageModel

/// `load <file>`: replaces the package's contents with a file's; the file becomes the file
/// being edited. A file that cannot be read or decoded changes nothing.
///
/// Loading is not undoable: it forgets the undo history, so that `undo` can never bring back
/// one file's package while `save` writes to another's name. In interactive mode, loading over
/// unsaved changes warns first, and loads when asked again.
struct LoadCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "load", usage: "load <file>",
    summary: "load a file (this forgets the undo history)", arguments: 1...1,
    argumentKinds: [.file])

  /// The file as the user named it.
  let file: String

  init(file: String) { self.file = file }

  init(name: String, arguments: [String]) throws(CommandError) {
    file = arguments[0]
  }

  func run(in session: EditorSession) throws(CommandError) {
    let document: PackageDocument
    do {
      document = try PackageFile.read(session.resolve(file), naming: file)
    } catch {
      throw .failed(command: "load", subject: nil, message: error.description)
    }
    if session.confirmsDiscarding, session.hasUnsavedChanges,
      session.discardWarnedAt != session.history.version
    {
      session.discardWarnedAt = session.history.version
      session.output.warning(
        "there are unsaved changes: save them with save [file], or load again to discard them")
      return
    }
    session.package.apply(document)
    session.history.clear()
    session.output.line("loaded \(file)")
    session.markSaved(as: file)
  }
}
