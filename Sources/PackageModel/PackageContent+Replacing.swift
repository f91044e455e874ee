import KVOLite

extension PackageContent {
  /// A copy of this line with the field `key` (`title`, `quantity` or `weight`) set from text:
  /// contents are immutable, so a line is edited by replacing it with such a copy.
  ///
  /// - Parameters:
  ///   - key: The field to change.
  ///   - text: Its new value, as ``/KVOLite/KeyValueTextConvertible`` text of the field's type.
  ///   - path: How errors name the field (`contents.1.quantity`).
  /// - Throws: ``/KVOLite/KeyValueError/unparsableText(text:path:expected:)`` for text that is
  ///   not of the field's type, ``/KVOLite/KeyValueError/validationFailed(path:reason:)`` for a
  ///   value the line refuses (the reason is the ``PackageError``), and
  ///   ``/KVOLite/KeyValueError/unknownKey(key:type:path:suggestion:)`` for another key.
  public func replacing(_ key: String, withText text: String, path: String)
    throws(KeyValueError) -> PackageContent
  {
    var (title, quantity, weight) = (self.title, self.quantity, self.weight)
    switch key {
    case "title": title = text
    case "quantity": quantity = try Self.parse(text, path: path)
    case "weight": weight = try Self.parse(text, path: path)
    default:
      throw .unknownKey(key: key, type: "PackageContent", path: "", suggestion: nil)
    }
    do {
      return try PackageContent(title: title, quantity: quantity, weight: weight)
    } catch {
      throw .validationFailed(path: path, reason: error.description)
    }
  }

  private static func parse<Value: KeyValueTextConvertible>(_ text: String, path: String)
    throws(KeyValueError) -> Value
  {
    guard let value = Value(keyValueText: text) else {
      let expected = Value.self == Int.self ? "a whole number (Int)" : "a number (Double)"
      throw .unparsableText(text: text, path: path, expected: expected)
    }
    return value
  }
}
