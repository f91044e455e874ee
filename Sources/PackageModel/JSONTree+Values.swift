import Foundation

extension JSONTree {
  /// The string a JSON string literal (with its quotes) spells; `nil` if it is not one.
  static func decodeString(_ literal: ArraySlice<UInt8>) -> String? {
    // Most strings have no escape: their text is their bytes.
    if literal.count >= 2, literal.first == 0x22, literal.last == 0x22,
      !literal.dropFirst().dropLast().contains(where: { $0 == 0x5C || $0 < 0x20 })
    {
      return String(validating: literal.dropFirst().dropLast(), as: UTF8.self)
    }
    return
      (try? JSONDecoder().decode([String].self, from: Data([UInt8(ascii: "[")] + literal + [93])))?
      .first
  }

  /// The number a JSON number literal spells; `nil` if it is not one.
  static func decodeNumber(_ literal: ArraySlice<UInt8>) -> Double? {
    // A JSON number is also Swift's number syntax.
    if let value = Double(String(decoding: literal, as: UTF8.self)) { return value }
    return
      (try? JSONDecoder().decode([Double].self, from: Data([UInt8(ascii: "[")] + literal + [93])))?
      .first
  }

  /// `value` as JSON text, written as the editor writes every document (Foundation's
  /// `JSONEncoder`, pretty-printed with sorted keys), starting at column 0.
  static func encode(_ value: some Encodable) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    // Wrapped in an array, so that a string or a number is a valid document; the array's
    // brackets and its indentation are then taken off.
    guard let data = try? encoder.encode([value]) else { return [] }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().dropLast()
      .map { $0.dropFirst(2) }
    return Array(lines.joined(separator: "\n").utf8)
  }

  /// `text` with every line but the first indented by `indentation` (to place a value written
  /// at column 0 inside a document).
  static func indented(_ text: [UInt8], by indentation: ArraySlice<UInt8>) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(text.count)
    for byte in text {
      result.append(byte)
      if byte == 0x0A { result += indentation }
    }
    return result
  }
}
