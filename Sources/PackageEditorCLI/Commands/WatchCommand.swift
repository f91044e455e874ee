import KVOLite

/// `watch <keyPath> [initial] [old] [new] [prior]`: prints one line per notification of a key
/// path until it is unwatched. Without `old` or `new`, both are shown: `watch KEY initial`
/// shows the value now, then old and new values.
struct WatchCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "watch", usage: "watch <keyPath> [initial] [old] [new] [prior]",
    summary: "print every change of a key path",
    details: [
      "It shows old and new values unless old or new is given; initial adds the",
      "value now, prior the notification before each change.",
    ],
    arguments: 1...5,
    argumentKinds: [.keyPath, .choice(ArgumentParsing.observingOptions.map(\.word))])

  let keyPath: String
  let options: ObservingOptions

  init(keyPath: String, options: ObservingOptions) {
    self.keyPath = keyPath
    self.options = options
  }

  init(name: String, arguments: [String]) throws(CommandError) {
    keyPath = arguments[0]
    options = try ArgumentParsing.options(name, arguments.dropFirst())
  }

  func run(in session: EditorSession) throws(CommandError) {
    guard !session.watches.contains(where: { $0.keyPath == keyPath }) else {
      throw .failed(
        command: "watch", subject: keyPath, message: "already watched (unwatch it first)")
    }
    let output = session.output
    let watched = keyPath
    let token = try session.kvc("watch", keyPath) { () throws(KeyValueError) in
      do throws(KeyValueError) {
        return try session.package.observe(keyPath, options: options) { change in
          output.watch(ValueText.change(watched, change))
        }
      } catch {
        // The advice on computed properties is for a programmer: the REPL has none to declare.
        guard case .unknownKeyToObserve(let key, let type, let path) = error else { throw error }
        throw .unknownKey(key: key, type: type, path: path, suggestion: nil)
      }
    }
    session.watches.append((keyPath, options, token))
  }
}
