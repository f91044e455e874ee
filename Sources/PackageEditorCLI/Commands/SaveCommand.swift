import PackageModel

/// `save [file]`: saves the package to a file (by default the file being edited), which then
/// becomes the file being edited.
struct SaveCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "save", usage: "save [file]",
    summary: "save to a file (by default the file being edited)",
    arguments: 0...1, argumentKinds: [.file])

  /// The file as the user named it; `nil` for the file being edited.
  let file: String?

  init(file: String?) { self.file = file }

  init(name: String, arguments: [String]) throws(CommandError) {
    file = arguments.first
  }

  func run(in session: EditorSession) throws(CommandError) {
    guard let path = file ?? session.file else {
      throw .badArgument(command: "save", message: "no file to save to; give one: save <file>")
    }
    do {
      try PackageFile.save(session.package, to: session.resolve(path), naming: path)
    } catch {
      throw .failed(command: "save", subject: nil, message: error.description)
    }
    session.markSaved(as: path)
    session.output.line("saved \(path)")
  }
}
