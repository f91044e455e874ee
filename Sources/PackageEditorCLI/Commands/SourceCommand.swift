/// `source <file>`: runs the commands of a script file, as `sqlite3`'s `.read` and `psql`'s
/// `\i` do. Its errors name the file and line; in interactive mode the script stops at its
/// first error, and in batch mode the run does (unless `--keep-going`). Its lines run after
/// the rest of the line that sourced it.
struct SourceCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "source", usage: "source <file>", summary: "run the commands of a script file",
    details: [
      "Errors name the file and line. At the prompt, the script stops at its first",
      "error; in batch mode, so does the run (unless --keep-going).",
    ],
    arguments: 1...1, argumentKinds: [.file])

  /// The script as the user named it.
  let file: String

  init(file: String) { self.file = file }

  init(name: String, arguments: [String]) throws(CommandError) {
    file = arguments[0]
  }

  func run(in session: EditorSession) throws(CommandError) {
    guard let input = session.input else {
      throw .badArgument(command: "source", message: "scripts cannot be run here")
    }
    guard input.depth < SourceStack.maximumDepth else {
      throw .failed(
        command: "source", subject: file,
        message: "scripts nest more than \(SourceStack.maximumDepth) deep")
    }
    do {
      input.push(try ScriptSource.openScript(session.resolve(file), naming: file))
    } catch {
      throw .failed(command: "source", subject: nil, message: error.description)
    }
  }
}
