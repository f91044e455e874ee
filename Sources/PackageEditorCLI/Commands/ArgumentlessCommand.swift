/// A command that takes no arguments: there is nothing to parse.
protocol ArgumentlessCommand: EditorCommand {
  init()
}

extension ArgumentlessCommand {
  init(name: String, arguments: [String]) throws(CommandError) {
    self.init()
  }
}
