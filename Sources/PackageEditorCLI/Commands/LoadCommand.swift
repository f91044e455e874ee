import PackageModel

/// `load <file>`: replaces the package's contents with a file's, as one undoable change; the
/// file becomes the file being edited. A file that cannot be read or decoded changes nothing.
struct LoadCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "load", usage: "load <file>", summary: "load a file (undoable)", arguments: 1...1,
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
    session.package.apply(document)
    session.output.line("loaded \(file)")
    session.markSaved(as: file)
  }
}
