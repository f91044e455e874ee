import PackageModel

/// `remove <index>`: removes a content line through the view model.
struct RemoveCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "remove", usage: "remove <index>", summary: "remove the content line at an index",
    arguments: 1...1, argumentKinds: [.contentIndex])

  let index: Int

  init(index: Int) { self.index = index }

  init(name: String, arguments: [String]) throws(CommandError) {
    index = try ArgumentParsing.index(name, arguments[0])
  }

  func run(in session: EditorSession) throws(CommandError) {
    try session.contentChange("remove") { () throws(PackageError) in
      _ = try session.viewModel.removeContent(at: index)
    }
  }
}
