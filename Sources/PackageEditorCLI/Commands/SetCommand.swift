import KVOLite

/// `set <keyPath> <value>`: sets an attribute from text, the way a view would: through the view
/// model, which routes the key paths it edits through its own fields and the rest through
/// key-value coding.
struct SetCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "set", usage: "set <keyPath> <value>",
    summary:
      "set an attribute; quote values with spaces: set recipient.postalAddress.street \"1 Main St\"",
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
    try session.kvc("set", keyPath) { () throws(KeyValueError) in
      try session.viewModel.setValue(fromText: value, forKeyPath: keyPath)
    }
  }
}
