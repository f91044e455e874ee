import KVOLite

/// The argument forms that several commands share, each with the error that names the command
/// and what was expected.
enum ArgumentParsing {
  /// A content index: a whole number, 0 or more, in ASCII digits.
  static func index(_ command: String, _ text: String) throws(CommandError) -> Int {
    guard let index = Int(text), index >= 0, text.allSatisfy(\.isASCII) else {
      throw .badArgument(
        command: command, message: "the index must be a whole number, 0 or more, not \"\(text)\"")
    }
    return index
  }

  /// An optional quantity (1 by default) and weight in kilograms (0 by default).
  static func amounts(_ command: String, _ arguments: ArraySlice<String>) throws(CommandError) -> (
    Int, Double
  ) {
    var quantity = 1
    var weight = 0.0
    if let text = arguments.first {
      guard let value = Int(keyValueText: text) else {
        throw .badArgument(
          command: command, message: "the quantity must be a whole number, not \"\(text)\"")
      }
      quantity = value
    }
    if let text = arguments.dropFirst().first {
      guard let value = Double(keyValueText: text) else {
        throw .badArgument(
          command: command, message: "the weight must be a number of kilograms, not \"\(text)\"")
      }
      weight = value
    }
    return (quantity, weight)
  }

  /// The observing options `watch` names.
  static let observingOptions: [(word: String, option: ObservingOptions)] = [
    ("initial", .initial), ("old", .old), ("new", .new), ("prior", .prior),
  ]

  /// Observing options from their words. Without `old` or `new`, both are added (the default):
  /// `initial` and `prior` add to what is shown rather than replace it.
  static func options(_ command: String, _ words: ArraySlice<String>) throws(CommandError)
    -> ObservingOptions
  {
    var options: ObservingOptions = []
    for word in words {
      guard let entry = observingOptions.first(where: { $0.word == word }) else {
        throw .badArgument(
          command: command, message: "unknown option \"\(word)\" (use initial, old, new, prior)")
      }
      options.insert(entry.option)
    }
    if !options.contains(.old), !options.contains(.new) { options.formUnion([.old, .new]) }
    return options
  }
}
