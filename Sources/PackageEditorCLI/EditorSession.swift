import KVOLite
import PackageModel

/// The editor's state and what each command does to it: the "view" of the package view model.
///
/// Edits of the recipient's first name, last name and street go through the view model, as a
/// view's would; other key paths through key-value coding. Every command that changes the
/// package is one undo step. A failed command changes nothing. Output goes to `output`: one
/// `summary: …` line after every command that changed the summary, one line per watch
/// notification, and errors as `error: …`.
final class EditorSession {
  let package: Package
  let viewModel: PackageViewModel
  let history: ChangeHistory
  let output: EditorOutput
  /// The file `save` writes by default, as the user named it.
  private(set) var file: String?
  /// The directory that relative file names are resolved against; `nil` for the process's
  /// current directory.
  let directory: String?
  private var savedVersion: Int
  var watches: [(keyPath: String, options: ObservingOptions, token: ObservationToken)] = []

  /// A session on `package`, saved to `file` by default, printing to `output` (every line made
  /// one line: see ``OneLineOutput``), resolving relative file names against `directory`.
  init(package: Package, file: String?, output: EditorOutput, directory: String? = nil) {
    self.package = package
    self.file = file
    self.output = OneLineOutput.wrapping(output)
    self.directory = directory
    viewModel = PackageViewModel(package: package)
    history = ChangeHistory(root: package)
    savedVersion = history.version
  }

  /// Whether the package changed since it was loaded or saved.
  var hasUnsavedChanges: Bool { history.version != savedVersion }

  /// Runs one line. Returns `false` if it failed (after printing the error), whether the
  /// command was a quit, and whether that quit was forced (`quit!`).
  func run(_ line: String) -> (succeeded: Bool, quit: Bool, force: Bool) {
    do {
      let words = try Tokenizer.words(line)
      guard !words.isEmpty else { return (true, false, false) }
      let command = try Command(words: words)
      if case .quit(let force) = command { return (true, true, force) }
      let summaryBefore = viewModel.summary
      try history.group { () throws(CommandError) in try execute(command) }
      if viewModel.summary != summaryBefore, command != .summary {
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
    output.error(message)
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

  private func execute(_ command: Command) throws(CommandError) {
    switch command {
    case .help(let topic): try HelpText.text(for: topic).forEach(output.line)
    case .show: show()
    case .get(let keyPath):
      let value = try kvc("get", keyPath) { () throws(KeyValueError) in try package.value(forKeyPath: keyPath) }
      output.line(ValueText.raw(value))
    case .set(let keyPath, let value): try set(keyPath, value)
    case .add(let title, let quantity, let weight):
      try content("add") { () throws(PackageError) in try viewModel.addContent(title: title, quantity: quantity, weight: weight) }
    case .insert(let index, let title, let quantity, let weight):
      try content("insert") { () throws(PackageError) in
        try viewModel.insertContent(PackageContent(title: title, quantity: quantity, weight: weight), at: index)
      }
    case .remove(let index):
      try content("remove") { () throws(PackageError) in _ = try viewModel.removeContent(at: index) }
    case .watch(let keyPath, let options): try watch(keyPath, options)
    case .unwatch(let keyPath): try unwatch(keyPath)
    case .watches: listWatches()
    case .undo:
      guard history.undo() else { throw .badArgument(command: "undo", message: "nothing to undo") }
    case .redo:
      guard history.redo() else { throw .badArgument(command: "redo", message: "nothing to redo") }
    case .save(let target): try save(target)
    case .load(let path): try load(path)
    case .new: package.reset()
    case .summary: output.summary("summary: " + viewModel.summary)
    case .quit: break
    }
  }

  /// Sets a key. Every successful set is a change, even to the value the key already has (as
  /// with KVO): watches see it and it is one undo step. The view model's fields skip an
  /// unchanged value (`removeDuplicates`), so such a set goes through key-value coding.
  private func set(_ keyPath: String, _ value: String) throws(CommandError) {
    switch keyPath {
    case "recipient.firstName" where viewModel.firstName != value: viewModel.firstName = value
    case "recipient.lastName" where viewModel.lastName != value: viewModel.lastName = value
    case "recipient.postalAddress.street" where viewModel.street.wrappedValue != value:
      viewModel.street.wrappedValue = value
    default:
      try kvc("set", keyPath) { () throws(KeyValueError) in
        try package.setValue(fromText: value, forKeyPath: keyPath)
      }
    }
  }

  private func content(_ command: String, _ body: () throws(PackageError) -> Void) throws(CommandError) {
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

  private func show() {
    let paths = Package.observableKeys.attributeKeyPaths().filter { $0 != "summary" }
    for path in paths {
      output.line(path + " = " + ValueText.quoted((try? package.value(forKeyPath: path)) ?? nil))
    }
    for (index, content) in package.contents.enumerated() {
      output.line(
        "contents.\(index) = \(ValueText.quote(content.title)) ×\(content.quantity), "
          + "\(ValueText.number(content.weight)) kg each")
    }
    output.line("summary = " + ValueText.quote(viewModel.summary))
  }

  private func save(_ target: String?) throws(CommandError) {
    guard let path = target ?? file else {
      throw .badArgument(command: "save", message: "no file to save to; give one: save <file>")
    }
    do {
      try PackageFile.save(package, to: resolve(path), naming: path)
    } catch {
      throw .failed(command: "save", subject: nil, message: error.description)
    }
    file = path
    savedVersion = history.version
    output.line("saved \(path)")
  }

  private func load(_ path: String) throws(CommandError) {
    let document: PackageDocument
    do {
      document = try PackageFile.read(resolve(path), naming: path)
    } catch {
      throw .failed(command: "load", subject: nil, message: error.description)
    }
    package.apply(document)
    file = path
    output.line("loaded \(path)")
    savedVersion = history.version
  }
}
