import PackageModel

/// `insert <index> <title> [quantity] [weight]`: inserts a content line through the view model.
struct InsertCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "insert", usage: "insert <index> <title> [quantity] [weight]",
    summary: "insert a content line at an index",
    arguments: 2...4, argumentKinds: [.contentIndex, .text])

  let index: Int
  let title: String
  let quantity: Int
  let weight: Double

  init(index: Int, title: String, quantity: Int, weight: Double) {
    self.index = index
    self.title = title
    self.quantity = quantity
    self.weight = weight
  }

  init(name: String, arguments: [String]) throws(CommandError) {
    index = try ArgumentParsing.index(name, arguments[0])
    title = arguments[1]
    (quantity, weight) = try ArgumentParsing.amounts(name, arguments.dropFirst(2))
  }

  func run(in session: EditorSession) throws(CommandError) {
    try session.contentChange("insert") { () throws(PackageError) in
      try session.viewModel.insertContent(
        PackageContent(title: title, quantity: quantity, weight: weight), at: index)
    }
  }
}
