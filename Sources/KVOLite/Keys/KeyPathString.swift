/// A parsed string key path such as `"recipient.postalAddress.street"`.
///
/// Parsing only checks the syntax; resolving the components against declared keys is the job of
/// ``ObservableKeys``. A component is a key name; names are non-empty and contain neither `.`
/// nor white space. A component starting with `@` is a collection operator, which observing does
/// not accept.
struct KeyPathString: Sendable, Equatable {
  /// The path as written.
  let text: String
  /// The dot-separated components, in order.
  let components: [String]

  /// Parses `text`, throwing ``KeyValueError/malformedKeyPath(path:reason:)`` for an empty
  /// path, an empty component (`"."`, `"a..b"`, `"a."`), white space or control characters.
  init(_ text: String) throws(KeyValueError) {
    self.text = text
    guard !text.isEmpty else {
      throw .malformedKeyPath(path: text, reason: "the key path is empty")
    }
    // ASCII first: Unicode property lookups cost more than the rest of the parse.
    func isBad(_ scalar: Unicode.Scalar) -> Bool {
      if scalar.isASCII { return scalar.value <= 0x20 || scalar.value == 0x7F }
      return scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
    }
    if let bad = text.unicodeScalars.first(where: isBad) {
      let code = String(bad.value, radix: 16, uppercase: true)
      let shown = "U+" + String(repeating: "0", count: max(0, 4 - code.count)) + code
      throw .malformedKeyPath(path: text, reason: "it contains the character \(shown)")
    }
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    for (offset, part) in parts.enumerated() where part.isEmpty {
      let reason =
        parts.count == 1 || text == "."
        ? "it has no key"
        : offset == 0
          ? "it starts with \".\""
          : offset == parts.count - 1
            ? "it ends with \".\"" : "it has an empty key between two dots"
      throw .malformedKeyPath(path: text, reason: reason)
    }
    components = parts.map(String.init)
  }

  /// The components before `index`, joined, for "after …" in error messages.
  func prefix(_ count: Int) -> String {
    components.prefix(count).joined(separator: ".")
  }
}
