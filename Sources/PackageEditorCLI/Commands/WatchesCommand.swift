/// `watches`: lists the watched key paths, one line each with its options.
struct WatchesCommand: ArgumentlessCommand {
  static let configuration = CommandConfiguration(
    name: "watches", usage: "watches", summary: "list the watched key paths")

  func run(in session: EditorSession) {
    guard !session.watches.isEmpty else { return session.output.line("no watches") }
    for watch in session.watches { session.output.line("\(watch.keyPath) \(watch.options)") }
  }
}
