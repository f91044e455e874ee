import KVOLite
import PackageModel

/// `set <keyPath> <value>`: sets a value from text through the view model, the way a view
/// would (see ``PackageModel/PackageViewModel/setValue(fromText:forKeyPath:)``): an attribute
/// of the package, or a field of a content line (`contents.1.quantity`), which replaces the
/// line.
///
/// A successful set always prints one line: the summary if it changed (printed by the
/// session), otherwise `keyPath = value`, or `keyPath = value (unchanged)` when the key already
/// had that value (then nothing changed: no unsaved change, no undo step).
struct SetCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "set", usage: "set <keyPath> <value>",
    summary: "set a value: set contents.1.quantity 3",
    details: [
      "Quote a value with spaces: set recipient.postalAddress.street \"1 Main St\".",
      "A field of a content line replaces the line (contents are immutable).",
      "A value the key already has changes nothing: set says unchanged.",
    ],
    arguments: 2...2, argumentKinds: [.keyPath, .text])

  let keyPath: String
  let value: String

  init(keyPath: String, value: String) {
    self.keyPath = keyPath
    self.value = value
  }

  init(name: String, arguments: [String]) throws(CommandError) {
    keyPath = arguments[0]
    value = arguments[1]
  }

  func run(in session: EditorSession) throws(CommandError) {
    let summary = session.viewModel.summary
    let edit = try session.kvc("set", keyPath) { () throws(KeyValueError) in
      try session.viewModel.setValue(fromText: value, forKeyPath: keyPath)
    }
    func shown() -> String {
      ValueText.quoted(edit.value ?? ((try? session.package.value(forKeyPath: keyPath)) ?? nil))
    }
    switch edit.kind {
    case .unchanged:
      session.output.line("\(keyPath) = \(shown()) (unchanged)")
    case .set, .replacedContent:
      if session.viewModel.summary == summary { session.output.line("\(keyPath) = \(shown())") }
    }
    if case .replacedContent(_, let old, let new) = edit.kind {
      session.contentReplaced(old, by: new)
    }
  }
}
