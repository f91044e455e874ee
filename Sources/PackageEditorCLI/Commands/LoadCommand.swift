import PackageModel

/// `load [file]`: replaces the package's contents with a file's; the file becomes the file
/// being edited. Without a file, reloads the file being edited (to take another program's
/// version of it). A file that cannot be read or decoded changes nothing.
///
/// Loading is not undoable: it forgets the undo history, so that `undo` can never bring back
/// one file's package while `save` writes to another's name. In interactive mode, loading over
/// unsaved changes warns first, and loads when asked again.
struct LoadCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "load", usage: "load [file]",
    summary: "load a file, or reload the one being edited",
    details: ["This forgets the undo history."],
    arguments: 0...1,
    argumentKinds: [.file])

  /// The file as the user named it; `nil` for the file being edited.
  let file: String?

  init(file: String?) { self.file = file }

  init(name: String, arguments: [String]) throws(CommandError) {
    file = arguments.first
  }

  func run(in session: EditorSession) throws(CommandError) {
    guard let file = file ?? session.file else {
      throw .badArgument(command: "load", message: "no file to load; give one: load <file>")
    }
    let document: PackageDocument
    var snapshot: PackageFileSnapshot
    do {
      (document, snapshot) = try PackageFile.load(session.resolve(file), naming: file)
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
    snapshot.adoptContents(of: session.package)
    session.output.line("loaded \(file)")
    session.markSaved(as: file, snapshot: snapshot)
  }
}
