/// The placeholder banner, until the REPL is built.
enum Banner {
  static let text = "package-editor: the REPL arrives with its own issue"
}
