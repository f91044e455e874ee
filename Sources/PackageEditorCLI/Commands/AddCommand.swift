import PackageModel

/// `add <title> [quantity] [weight]`: appends a content line through the view model.
struct AddCommand: EditorCommand {
  static let configuration = CommandConfiguration(
    name: "add", usage: "add <title> [quantity] [weight]",
    summary: "append a content line (1 piece, 0 kg by default)",
    arguments: 1...3, argumentKinds: [.text])

  let title: String
  let quantity: Int
  let weight: Double

  init(title: String, quantity: Int, weight: Double) {
    self.title = title
    self.quantity = quantity
    self.weight = weight
  }

  init(name: String, arguments: [String]) throws(CommandError) {
    title = arguments[0]
    (quantity, weight) = try ArgumentParsing.amounts(name, arguments.dropFirst())
  }

  func run(in session: EditorSession) throws(CommandError) {
    try session.contentChange("add") { () throws(PackageError) in
      try session.viewModel.addContent(title: title, quantity: quantity, weight: weight)
    }
  }
}
