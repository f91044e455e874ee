import KVOLite

extension EditorSession {
  /// `watch <keyPath> [options]`: prints one line per notification until unwatched.
  func watch(_ keyPath: String, _ options: ObservingOptions) throws(CommandError) {
    guard !watches.contains(where: { $0.keyPath == keyPath }) else {
      throw .failed(command: "watch", subject: keyPath, message: "already watched (unwatch it first)")
    }
    let output = self.output
    let token = try kvc("watch", keyPath) { () throws(KeyValueError) in
      try package.observe(keyPath, options: options) { change in
        output.watch(ValueText.change(keyPath, change))
      }
    }
    watches.append((keyPath, options, token))
  }

  /// `unwatch <keyPath>` or, with `nil`, `unwatch all`.
  func unwatch(_ keyPath: String?) throws(CommandError) {
    guard let keyPath else {
      watches.forEach { $0.token.invalidate() }
      watches = []
      return
    }
    guard let index = watches.firstIndex(where: { $0.keyPath == keyPath }) else {
      throw .failed(command: "unwatch", subject: keyPath, message: "not watched (see watches)")
    }
    watches.remove(at: index).token.invalidate()
  }

  /// `watches`: one line per watch, with its options.
  func listWatches() {
    guard !watches.isEmpty else { return output.line("no watches") }
    for watch in watches { output.line("\(watch.keyPath) \(watch.options)") }
  }
}
