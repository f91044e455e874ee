import Foundation
import KVOLite
import PackageModel

/// The editor's state and what each command does to it: the "view" of the package view model.
///
/// What each command does is declared with the command (see ``CommandTable``); the session
/// holds what they share. Edits go through the view model, as a view's would (the view model
/// decides which key paths its own fields edit). Every command that changes the package is one
/// undo step. A failed command changes nothing. Output goes to `output`: one `summary: …` line
/// after every command that changed the summary, one line per watch notification, and errors
/// as `error: …`.
final class EditorSession {
  let package: Package
  let viewModel: PackageViewModel
  let history: ChangeHistory
  let output: EditorOutput
  /// The file being edited, as the user named it: what `save` writes and `load` reloads.
  private(set) var file: String?
  /// What ``file`` held when it was loaded or last saved (nothing, if it did not exist): a
  /// save checks that no other program changed it since, and keeps what the editor does not
  /// know of it. `nil` without a file.
  private(set) var snapshot: PackageFileSnapshot?
  /// The directory that relative file names are resolved against; `nil` for the process's
  /// current directory.
  let directory: String?
  private var savedVersion: Int
  /// Where the line being run comes from (`script.txt:12`), named in its errors; `nil` when
  /// the input is not named (interactive).
  var location: String?
  /// Whether a command that would discard unsaved changes (`load`) asks first: it warns, and
  /// goes ahead when repeated with nothing changed since (interactive mode).
  var confirmsDiscarding = false
  /// The history version at which `load` last warned of unsaved changes.
  var discardWarnedAt: Int?
  /// The editor's input, to which `source` adds scripts; `nil` outside the command loop.
  weak var input: SourceStack?
  /// The watched key paths, in the order they were watched (see ``WatchCommand``).
  var watches: [(keyPath: String, options: ObservingOptions, token: ObservationToken)] = []

  /// A session on `package`, saved to `file` by default, printing to `output` (every line made
  /// one line: see ``OneLineOutput``), resolving relative file names against `directory`.
  init(
    package: Package, file: String?, snapshot: PackageFileSnapshot? = nil, output: EditorOutput,
    directory: String? = nil
  ) {
    self.package = package
    self.file = file
    self.snapshot = file == nil ? nil : snapshot ?? .absent
    self.output = OneLineOutput.wrapping(output)
    self.directory = directory
    viewModel = PackageViewModel(package: package)
    history = ChangeHistory(root: package)
    savedVersion = history.version
  }

  /// Whether the package changed since it was loaded or saved.
  var hasUnsavedChanges: Bool { history.version != savedVersion }

  /// Records that the package as it is now is what `file` holds (`snapshot`), and makes
  /// `file` the file being edited.
  func markSaved(as file: String, snapshot: PackageFileSnapshot) {
    self.file = file
    self.snapshot = snapshot
    savedVersion = history.version
  }

  /// Records that `set` replaced the content line `old` by `new`, a copy with one field
  /// changed, so that a save keeps what the file held for it.
  func contentReplaced(_ old: PackageContent, by new: PackageContent) {
    snapshot?.contentReplaced(old, by: new)
  }

  /// Whether `path` (as the user named it) is the file being edited: the same name, or the
  /// same file under another name.
  func isEditing(_ path: String) -> Bool {
    guard let file else { return false }
    if path == file { return true }
    var mine = stat()
    var other = stat()
    return stat(resolve(file), &mine) == 0 && stat(resolve(path), &other) == 0
      && mine.st_dev == other.st_dev && mine.st_ino == other.st_ino
  }

  /// The prompt: `package> `, or `package shipment.json> ` when editing a file, with `*` before
  /// the `>` when there are unsaved changes (a long name is shortened from the left).
  var prompt: String {
    var name = file.map { OneLineOutput.escaped($0) } ?? ""
    if name.count > 32 { name = "…" + name.suffix(31) }
    return "package" + (name.isEmpty ? "" : " " + name) + (hasUnsavedChanges ? "*" : "") + "> "
  }

  /// `editing shipment.json` or `editing the built-in sample package`: what the banner and
  /// `file` say.
  var editingDescription: String {
    file.map { "editing \($0)" } ?? "editing the built-in sample package"
  }

  /// Runs the commands of a line, separated by `;` outside quotes (`a; b` is `a`, then `b`),
  /// as if each were a line of its own; stops at a quit, and at the first error if
  /// `stopAtError`. Returns whether every command succeeded, and the quit if there was one.
  func runCommands(_ line: String, stopAtError: Bool) -> (succeeded: Bool, quit: Bool, force: Bool)
  {
    var succeeded = true
    for command in Tokenizer.commands(line) {
      let result = run(String(command))
      succeeded = succeeded && result.succeeded
      if result.quit { return (succeeded, true, result.force) }
      if !result.succeeded, stopAtError { break }
    }
    return (succeeded, false, false)
  }

  /// Runs one command. Returns `false` if it failed (after printing the error), whether the
  /// command was a quit, and whether that quit was forced (`quit!`). A line whose first
  /// character other than a space or tab is `#` is a comment, and a blank line is nothing.
  func run(_ line: String) -> (succeeded: Bool, quit: Bool, force: Bool) {
    if let first = line.utf8.first(where: { $0 != 0x20 && $0 != 0x09 }), first == 0x23 {
      return (true, false, false)
    }
    do {
      let words = try Tokenizer.words(line)
      guard !words.isEmpty else { return (true, false, false) }
      let command = try CommandTable.parse(words)
      if let quit = command as? QuitCommand { return (true, true, quit.force) }
      let summaryBefore = viewModel.summary
      try history.group { () throws(CommandError) in try command.run(in: self) }
      if viewModel.summary != summaryBefore {
        output.summary("summary: " + viewModel.summary)
      }
      return (true, false, false)
    } catch let failure as Tokenizer.Failure {
      reject(failure.description)
    } catch let error as CommandError {
      reject(error.description)
    } catch {
      reject("\(error)")
    }
    return (false, false, false)
  }

  /// Reports an error, on one line (control characters a message quotes from the input are
  /// escaped by the output).
  func reject(_ message: String) {
    if let location {
      output.error(message, at: location)
    } else {
      output.error(message)
    }
  }

  /// `path` resolved against ``directory`` if it is relative.
  func resolve(_ path: String) -> String {
    EditorSession.resolve(path, in: directory)
  }

  /// `path` resolved against `directory` if it is relative.
  static func resolve(_ path: String, in directory: String?) -> String {
    guard let directory, !path.hasPrefix("/") else { return path }
    return directory.hasSuffix("/") ? directory + path : directory + "/" + path
  }

  /// Runs a change of the contents, turning its error into one that names the command.
  func contentChange(_ command: String, _ body: () throws(PackageError) -> Void)
    throws(CommandError)
  {
    do {
      try body()
    } catch {
      throw .failed(command: command, subject: nil, message: error.description)
    }
  }

  /// Runs a key-value coding call, turning its error into one that names the command and path.
  func kvc<Result>(_ command: String, _ keyPath: String, _ body: () throws(KeyValueError) -> Result)
    throws(CommandError) -> Result
  {
    do {
      return try body()
    } catch {
      throw .failed(command: command, subject: keyPath, message: error.description)
    }
  }
}
