import KVOLite

/// A parsed command line.
enum Command: Equatable {
  case help(topic: String?)
  case show
  case get(keyPath: String)
  case set(keyPath: String, value: String)
  case add(title: String, quantity: Int, weight: Double)
  case insert(index: Int, title: String, quantity: Int, weight: Double)
  case remove(index: Int)
  case watch(keyPath: String, options: ObservingOptions)
  case unwatch(keyPath: String?)
  case watches
  case undo
  case redo
  case save(file: String?)
  case load(file: String)
  case new
  case summary
  /// `quit`/`exit`; `force` for `quit!`/`exit!`, which leave even with unsaved changes.
  case quit(force: Bool)

  /// Every command name, for help and "did you mean".
  static let names = [
    "help", "show", "get", "set", "add", "insert", "remove", "watch", "unwatch", "watches",
    "undo", "redo", "save", "load", "new", "summary", "quit", "exit",
  ]

  /// Parses the words of a line (the first is the command name).
  /// - Throws: ``CommandError`` for an unknown command (with a close match) or wrong arguments
  ///   (with the command's usage).
  init(words: [String]) throws(CommandError) {
    guard let name = words.first else { throw .empty }
    let arguments = Array(words.dropFirst())
    func count(_ range: ClosedRange<Int>) throws(CommandError) {
      guard range.contains(arguments.count) else { throw .usage(command: name) }
    }
    switch name {
    case "help":
      try count(0...1)
      self = .help(topic: arguments.first)
    case "show", "watches", "undo", "redo", "new", "summary":
      try count(0...0)
      self = [
        "show": .show, "watches": .watches, "undo": .undo, "redo": .redo, "new": .new,
        "summary": .summary,
      ][name]!
    case "quit", "exit", "quit!", "exit!":
      try count(0...0)
      self = .quit(force: name.hasSuffix("!"))
    case "get":
      try count(1...1)
      self = .get(keyPath: arguments[0])
    case "set":
      try count(2...2)
      self = .set(keyPath: arguments[0], value: arguments[1])
    case "add":
      try count(1...3)
      let (quantity, weight) = try Command.amounts(name, arguments.dropFirst())
      self = .add(title: arguments[0], quantity: quantity, weight: weight)
    case "insert":
      try count(2...4)
      let index = try Command.index(name, arguments[0])
      let (quantity, weight) = try Command.amounts(name, arguments.dropFirst(2))
      self = .insert(index: index, title: arguments[1], quantity: quantity, weight: weight)
    case "remove":
      try count(1...1)
      self = .remove(index: try Command.index(name, arguments[0]))
    case "watch":
      try count(1...5)
      self = .watch(keyPath: arguments[0], options: try Command.options(arguments.dropFirst()))
    case "unwatch":
      try count(1...1)
      self = .unwatch(keyPath: arguments[0] == "all" ? nil : arguments[0])
    case "save":
      try count(0...1)
      self = .save(file: arguments.first)
    case "load":
      try count(1...1)
      self = .load(file: arguments[0])
    default:
      throw .unknownCommand(name, suggestion: Command.closest(to: name))
    }
  }

  private static func index(_ command: String, _ text: String) throws(CommandError) -> Int {
    guard let index = Int(text), index >= 0, text.allSatisfy(\.isASCII) else {
      throw .badArgument(command: command, message: "the index must be a whole number, 0 or more, not \"\(text)\"")
    }
    return index
  }

  private static func amounts(_ command: String, _ arguments: ArraySlice<String>) throws(CommandError)
    -> (Int, Double)
  {
    var quantity = 1
    var weight = 0.0
    if let text = arguments.first {
      guard let value = Int(keyValueText: text) else {
        throw .badArgument(command: command, message: "the quantity must be a whole number, not \"\(text)\"")
      }
      quantity = value
    }
    if let text = arguments.dropFirst().first {
      guard let value = Double(keyValueText: text) else {
        throw .badArgument(command: command, message: "the weight must be a number of kilograms, not \"\(text)\"")
      }
      weight = value
    }
    return (quantity, weight)
  }

  private static func options(_ words: ArraySlice<String>) throws(CommandError) -> ObservingOptions {
    guard !words.isEmpty else { return [.old, .new] }
    var options: ObservingOptions = []
    for word in words {
      switch word {
      case "initial": options.insert(.initial)
      case "old": options.insert(.old)
      case "new": options.insert(.new)
      case "prior": options.insert(.prior)
      default:
        throw .badArgument(command: "watch", message: "unknown option \"\(word)\" (use initial, old, new, prior)")
      }
    }
    return options
  }

  /// The command name closest to `name`, if one is close.
  static func closest(to name: String) -> String? {
    Suggestion.closest(to: name, among: names)
  }
}
