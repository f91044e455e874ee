import KVOLite

/// `get <keyPath>`: prints one value, read by key-value coding (collection operators allowed).
struct GetCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "get", usage: "get <keyPath>",
    summary: "print one value (operators allowed: get contents.@sum.weight)",
    arguments: 1...1, argumentKinds: [.keyPath])

  let keyPath: String

  init(keyPath: String) { self.keyPath = keyPath }

  init(name: String, arguments: [String]) throws(CommandError) {
    keyPath = arguments[0]
  }

  func run(in session: EditorSession) throws(CommandError) {
    let value = try session.kvc("get", keyPath) { () throws(KeyValueError) in
      try session.package.value(forKeyPath: keyPath)
    }
    session.output.line(ValueText.raw(value))
  }
}
