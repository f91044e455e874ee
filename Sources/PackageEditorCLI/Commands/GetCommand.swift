import KVOLite

/// `get <keyPath>`: prints one value, read by key-value coding (collection operators allowed).
struct GetCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "get", usage: "get <keyPath>",
    summary: "print one value: get totalWeight",
    details: [
      "totalWeight is the package's weight, as the summary shows it. Collection",
      "operators apply to the contents: contents.@sum.quantity, contents.@max.weight",
      "(contents.@sum.weight adds the weight of one piece of each line).",
    ],
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
