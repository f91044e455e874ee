import PackageModel

/// `saveas <file>`: saves the package to a file, which becomes the file being edited (`save`
/// then writes it), as `:saveas` does in vi. The file is overwritten if it exists.
struct SaveAsCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "saveas", usage: "saveas <file>",
    summary: "save to a file and edit that file from now on",
    arguments: 1...1, argumentKinds: [.file])

  /// The file as the user named it.
  let file: String

  init(file: String) { self.file = file }

  init(name: String, arguments: [String]) throws(CommandError) {
    file = arguments[0]
  }

  func run(in session: EditorSession) throws(CommandError) {
    let previous = session.file
    let written = try SaveCommand.write(session, to: file, command: "saveas", replacing: nil)
    session.markSaved(as: file, snapshot: written)
    let was = previous.map { ", was \($0)" } ?? ""
    session.output.line("saved \(file) (now editing \(file)\(was))")
  }
}
