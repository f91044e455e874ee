import PackageModel

/// `save [file]`, `save! [file]`: saves the package to the file being edited, or a copy of it
/// to another file, as `:w` does in vi.
///
/// - `save` writes the file being edited, unless another program changed it since it was
///   loaded or last saved: then nothing is written, and the error says how to go on (`save!`
///   overwrites it, `load` takes its version, `saveas FILE` writes elsewhere).
/// - `save FILE`, while editing another file, writes a copy to FILE: the file being edited
///   stays what it was, and so do the unsaved changes. Without a file being edited (the
///   built-in sample), FILE becomes the file being edited. (`saveas FILE` switches files.)
/// - A save that cannot write says why and what to do: the permission that is missing (`chmod
///   u+w FILE` for a read-only file of the user's), and `saveas FILE` to save elsewhere.
/// - A save keeps every field of the file that the editor does not know.
struct SaveCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "save", aliases: ["save!"], usage: "save [file] | save! [file]",
    summary: "save the file being edited; with a file, a copy",
    details: [
      "save refuses to overwrite a file that another program changed since it was",
      "loaded or saved; save! overwrites it, load takes its version instead.",
      "While editing a file, save FILE writes a copy and keeps editing the file;",
      "saveas FILE switches to FILE. Fields the editor does not know are kept.",
    ],
    arguments: 0...1, argumentKinds: [.file])

  /// The file as the user named it; `nil` for the file being edited.
  let file: String?
  /// Whether to overwrite a file that changed on disk (`save!`).
  let force: Bool

  init(file: String?, force: Bool = false) {
    self.file = file
    self.force = force
  }

  init(name: String, arguments: [String]) throws(CommandError) {
    file = arguments.first
    force = name.hasSuffix("!")
  }

  func run(in session: EditorSession) throws(CommandError) {
    let name = force ? "save!" : "save"
    guard let path = file ?? session.file else {
      throw .badArgument(command: name, message: "no file to save to; give one: save <file>")
    }
    let current = session.file == nil || session.isEditing(path)
    let written = try SaveCommand.write(
      session, to: path, command: name,
      replacing: current && !force ? session.snapshot : nil)
    if !current, let editing = session.file {
      session.output.line("saved a copy to \(path) (still editing \(editing))")
      return
    }
    let switched = session.file == nil
    session.markSaved(as: session.file ?? path, snapshot: written)
    session.output.line("saved \(path)" + (switched ? " (now editing \(path))" : ""))
  }

  /// Writes the package to `path`, checking it against `expected` (see
  /// ``PackageModel/PackageFile/save(_:to:naming:replacing:keeping:)``), keeping what the file
  /// being edited holds that the editor does not know.
  static func write(
    _ session: EditorSession, to path: String, command: String,
    replacing expected: PackageFileSnapshot?
  ) throws(CommandError) -> PackageFileSnapshot {
    do {
      return try PackageFile.save(
        session.package, to: session.resolve(path), naming: path, replacing: expected,
        keeping: session.snapshot)
    } catch {
      var message = error.description
      switch error {
      case .changedOnDisk:
        message +=
          "; save! overwrites it, load \(path) takes its version (dropping these changes), saveas FILE saves them elsewhere"
      case .unwritable:
        // The way out, whatever stopped the save (the reason names the fix where there is one).
        message += "; saveas FILE saves the package elsewhere"
      default: break
      }
      throw .failed(command: command, subject: nil, message: message)
    }
  }
}
