/// `unwatch <keyPath>` or `unwatch all`: stops watching a key path, or all of them.
struct UnwatchCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "unwatch", usage: "unwatch <keyPath> | unwatch all",
    summary: "stop watching a key path, or all of them",
    arguments: 1...1, argumentKinds: [.watchedKeyPath])

  /// The key path to stop watching; `nil` for all of them.
  let keyPath: String?

  init(keyPath: String?) { self.keyPath = keyPath }

  init(name: String, arguments: [String]) throws(CommandError) {
    keyPath = arguments[0] == "all" ? nil : arguments[0]
  }

  func run(in session: EditorSession) throws(CommandError) {
    guard let keyPath else {
      for watch in session.watches { watch.token.invalidate() }
      session.watches = []
      return
    }
    guard let index = session.watches.firstIndex(where: { $0.keyPath == keyPath }) else {
      throw .failed(command: "unwatch", subject: keyPath, message: "not watched (see watches)")
    }
    session.watches.remove(at: index).token.invalidate()
  }
}
