/// Finds the first place where a document is not JSON (RFC 8259), and says what was expected
/// there, as `python3 -m json.tool` does: `line 1, column 35: expected a key in double quotes,
/// found "}"`. Foundation's decoder says only that the data is not valid JSON, and decodes
/// what it can before it notices some mistakes (a trailing comma, a leading zero).
///
/// Lines end at line feeds; columns count Unicode characters (scalars), from 1. What was found
/// is quoted with Swift escapes (`"\u{1b}"`), so that a message never carries a control
/// character, and cut after 20 characters. One pass over the UTF-8 bytes, with a stack of the
/// open objects and arrays instead of recursion, so that any nesting is read.
struct JSONSyntaxCheck {
  /// Where the document stops being JSON, and why.
  struct Mistake: Equatable, CustomStringConvertible {
    let line: Int
    let column: Int
    /// What was expected and what was found: `expected ":", found "{"`.
    let message: String

    var description: String { "line \(line), column \(column): \(message)" }
  }

  /// The first mistake in `bytes` (UTF-8), or `nil` if they are one JSON value.
  static func firstMistake(in bytes: [UInt8]) -> Mistake? {
    var check = JSONSyntaxCheck(bytes: bytes)
    do throws(Stop) {
      try check.document()
      return nil
    } catch {
      return check.mistake(error.message, at: error.offset)
    }
  }

  /// What the scan expects next.
  private enum Expectation {
    case value(orClose: Bool)
    case key(orClose: Bool)
    case colon
    case commaOrClose
    case end
  }

  /// A mistake at a byte offset, before it is placed by line and column.
  private struct Stop: Error {
    let message: String
    let offset: Int
  }

  private let bytes: [UInt8]
  private var index = 0

  private init(bytes: [UInt8]) { self.bytes = bytes }

  private mutating func document() throws(Stop) {
    var open: [UInt8] = []
    var expecting = Expectation.value(orClose: false)
    while true {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
      let byte = index < bytes.count ? bytes[index] : nil
      let close: UInt8 = open.last == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
      switch expecting {
      case .value(let orClose):
        switch byte {
        case UInt8(ascii: "]") where orClose:
          index += 1
          open.removeLast()
        case let bracket? where bracket == UInt8(ascii: "{") || bracket == UInt8(ascii: "["):
          index += 1
          open.append(bracket)
          expecting = bracket == UInt8(ascii: "{") ? .key(orClose: true) : .value(orClose: true)
          continue
        case UInt8(ascii: "\""): try string()
        case let first? where first == UInt8(ascii: "-") || Self.isDigit(first): try number()
        default:
          guard literal() else { throw expected("a value" + (orClose ? " or \"]\"" : "")) }
        }
        expecting = open.isEmpty ? .end : .commaOrClose
      case .key(let orClose):
        if orClose, byte == UInt8(ascii: "}") {
          index += 1
          open.removeLast()
          expecting = open.isEmpty ? .end : .commaOrClose
        } else {
          guard byte == UInt8(ascii: "\"") else {
            throw expected("a key in double quotes" + (orClose ? " or \"}\"" : ""))
          }
          try string()
          expecting = .colon
        }
      case .colon:
        guard byte == UInt8(ascii: ":") else { throw expected("\":\"") }
        index += 1
        expecting = .value(orClose: false)
      case .commaOrClose:
        if byte == UInt8(ascii: ",") {
          index += 1
          expecting = close == UInt8(ascii: "}") ? .key(orClose: false) : .value(orClose: false)
        } else if byte == close {
          index += 1
          open.removeLast()
          expecting = open.isEmpty ? .end : .commaOrClose
        } else {
          throw expected("\",\" or \"\(Character(Unicode.Scalar(close)))\"")
        }
      case .end:
        guard byte == nil else { throw expected("the end of the document") }
        return
      }
    }
  }

  /// Passes `true`, `false` or `null`; `false` if none is next.
  private mutating func literal() -> Bool {
    for word in ["true", "false", "null"] where bytes[index...].starts(with: word.utf8) {
      index += word.utf8.count
      return true
    }
    return false
  }

  /// Passes a number: `-`, an integer part without leading zeros, a fraction, an exponent.
  private mutating func number() throws(Stop) {
    func isDigit(_ offset: Int) -> Bool { offset < bytes.count && Self.isDigit(bytes[offset]) }
    func digits() throws(Stop) {
      guard isDigit(index) else { throw expected("a digit") }
      while isDigit(index) { index += 1 }
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else {
      try digits()
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      try digits()
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      try digits()
    }
  }

  /// Passes a string, checking its escapes, its control characters and its UTF-8.
  private mutating func string() throws(Stop) {
    index += 1
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return
      case UInt8(ascii: "\\"):
        guard index + 1 < bytes.count else {
          index += 1
          continue  // A last backslash: the string is not closed.
        }
        let escape = bytes[index + 1]
        if escape == UInt8(ascii: "u") {
          let hex = bytes[(index + 2)...].prefix(4)
          guard hex.count == 4,
            hex.allSatisfy({ Self.isDigit($0) || (0x61...0x66).contains($0 | 0x20) })
          else { throw notAnEscape(length: 2 + hex.count) }
          index += 6
        } else {
          guard "\"\\/bfnrt".utf8.contains(escape) else { throw notAnEscape(length: 2) }
          index += 2
        }
      case 0..<0x20:
        let code = String(byte, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: 4 - code.count) + code
        throw Stop(
          message: "a control character (U+\(padded)) must be escaped in a string, as \\u\(padded)",
          offset: index)
      case 0x80...:
        guard let length = Self.utf8Length(bytes, at: index) else { throw notUTF8(at: index) }
        index += length
      default:
        index += 1
      }
    }
    throw expected("the closing quote of the string")
  }

  private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

  /// The mistake of a backslash at `index` that does not start an escape, showing the
  /// `length` bytes it starts.
  private func notAnEscape(length: Int) -> Stop {
    let text = String(decoding: bytes[index..<min(index + length, bytes.count)], as: UTF8.self)
    return Stop(
      message:
        "\(Self.quoted(text)) is not an escape (expected \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t, or \\u and four hexadecimal digits)",
      offset: index)
  }

  private func notUTF8(at offset: Int) -> Stop {
    let code = String(bytes[offset], radix: 16, uppercase: true)
    return Stop(message: "the text is not UTF-8 (byte 0x\(code))", offset: offset)
  }

  /// The mistake of finding, at ``index``, something other than `what`.
  private func expected(_ what: String) -> Stop {
    guard index < bytes.count else {
      return Stop(message: "expected \(what), found the end of the file", offset: index)
    }
    if bytes[index] >= 0x80, Self.utf8Length(bytes, at: index) == nil { return notUTF8(at: index) }
    // What was found: one structural character, or a word up to the next delimiter.
    var found = ""
    let text = String(decoding: bytes[index..<min(index + 100, bytes.count)], as: UTF8.self)
    for scalar in text.unicodeScalars {
      let delimiter = " \t\r\n".unicodeScalars.contains(scalar)
      let structural = "{}[],:".unicodeScalars.contains(scalar)
      if delimiter || (structural && !found.isEmpty) { break }
      if found.unicodeScalars.count == 20 {
        found += "…"
        break
      }
      found.unicodeScalars.append(scalar)
      if structural { break }
    }
    return Stop(message: "expected \(what), found \(Self.quoted(found))", offset: index)
  }

  /// The mistake `message` at byte `offset`, placed by line and column.
  private func mistake(_ message: String, at offset: Int) -> Mistake {
    var line = 1
    var column = 1
    for byte in bytes[..<min(offset, bytes.count)] {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1  // A character starts here (a continuation byte does not start one).
      }
    }
    return Mistake(line: line, column: column, message: message)
  }

  /// `text` in double quotes, with `"`, `\` and control characters escaped as Swift does.
  private static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
        result += "\\u{" + String(scalar.value, radix: 16) + "}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// The length of the valid UTF-8 sequence at `offset` (which holds a byte of 0x80 or more),
  /// or `nil` if it is not one: no overlong forms, surrogates or values past U+10FFFF.
  private static func utf8Length(_ bytes: [UInt8], at offset: Int) -> Int? {
    let lead = bytes[offset]
    let (length, second): (Int, ClosedRange<UInt8>) =
      switch lead {
      case 0xC2...0xDF: (2, 0x80...0xBF)
      case 0xE0: (3, 0xA0...0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
      case 0xED: (3, 0x80...0x9F)
      case 0xF0: (4, 0x90...0xBF)
      case 0xF1...0xF3: (4, 0x80...0xBF)
      case 0xF4: (4, 0x80...0x8F)
      default: (0, 0x80...0xBF)
      }
    guard length > 0, offset + length <= bytes.count, second.contains(bytes[offset + 1]) else {
      return nil
    }
    for next in (offset + 2)..<(offset + length) where !(0x80...0xBF).contains(bytes[next]) {
      return nil
    }
    return length
  }
}
