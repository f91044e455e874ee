/// Finds what Foundation's `JSONDecoder` accepts silently in a package file: an object with the
/// same key twice (the decoder keeps one of them), nesting deep enough to exhaust the stack,
/// and more values than any package has (the decoder's memory grows with their number, to
/// about fourteen times the file's size).
///
/// A single pass over the UTF-8 bytes that follows JSON's grammar only as far as it needs to:
/// it stops quietly at the first syntax error, which the decoder then reports. It builds no
/// text for the values it passes, only for a key it reports.
struct JSONKeyCheck {
  enum Finding: Error, Equatable {
    /// `key` appears twice in the object at `path` (`recipient`, `contents[0]`; empty for the
    /// top level).
    case duplicateKey(key: String, path: String)
    /// Objects and arrays nest more than ``maximumDepth`` deep.
    case tooDeep
    /// The document holds more than ``maximumValues`` values.
    case tooManyValues
  }

  /// How deep objects and arrays may nest; a package file needs 3.
  static let maximumDepth = 64

  /// How many values (objects, arrays, strings, numbers, literals) a document may hold: a
  /// package of 100,000 contents needs about 800,000.
  static let maximumValues = 1_000_000

  /// One step of the path to the value being read.
  private enum Component {
    case key(String)
    case index(Int)
  }

  private let bytes: [UInt8]
  private var index = 0
  private var values = 0
  /// The path to the value being read, built into text only for a finding.
  private var components: [Component] = []

  /// The path of ``components``: `recipient`, `contents[0]`; empty at the top level.
  private var path: String {
    var text = ""
    for component in components {
      switch component {
      case .key(let key): text += text.isEmpty ? key : "." + key
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
  }

  /// The first finding in `bytes`, or `nil` if there is none (or the bytes are not JSON).
  static func check(_ bytes: [UInt8]) -> Finding? {
    var scanner = JSONKeyCheck(bytes: bytes)
    do {
      try scanner.value(depth: 0)
      return nil
    } catch let finding as Finding {
      return finding
    } catch {
      return nil
    }
  }

  private init(bytes: [UInt8]) { self.bytes = bytes }

  /// Stops the scan at a syntax error.
  private struct SyntaxError: Error {}

  private mutating func value(depth: Int) throws {
    skipSpace()
    guard index < bytes.count else { throw SyntaxError() }
    values += 1
    guard values <= JSONKeyCheck.maximumValues else { throw Finding.tooManyValues }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      guard depth < JSONKeyCheck.maximumDepth else { throw Finding.tooDeep }
      index += 1
      var keys = Set<String>()
      skipSpace()
      if peek(UInt8(ascii: "}")) { return }
      repeat {
        skipSpace()
        let key = try string()
        guard keys.insert(key).inserted else { throw Finding.duplicateKey(key: key, path: path) }
        skipSpace()
        guard peek(UInt8(ascii: ":")) else { throw SyntaxError() }
        components.append(.key(key))
        try value(depth: depth + 1)
        components.removeLast()
        skipSpace()
      } while peek(UInt8(ascii: ","))
      guard peek(UInt8(ascii: "}")) else { throw SyntaxError() }
    case UInt8(ascii: "["):
      guard depth < JSONKeyCheck.maximumDepth else { throw Finding.tooDeep }
      index += 1
      skipSpace()
      if peek(UInt8(ascii: "]")) { return }
      var element = 0
      repeat {
        components.append(.index(element))
        try value(depth: depth + 1)
        components.removeLast()
        element += 1
        skipSpace()
      } while peek(UInt8(ascii: ","))
      guard peek(UInt8(ascii: "]")) else { throw SyntaxError() }
    case UInt8(ascii: "\""):
      try skipString()
    default:
      // A number or a literal: its extent is all the decoder needs.
      while index < bytes.count, !"{}[],: \t\r\n\"".utf8.contains(bytes[index]) { index += 1 }
    }
  }

  /// Consumes `byte` if it is next.
  private mutating func peek(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  private mutating func skipSpace() {
    while index < bytes.count, " \t\r\n".utf8.contains(bytes[index]) { index += 1 }
  }

  /// Passes a string value, whose text nothing needs.
  private mutating func skipString() throws {
    guard peek(UInt8(ascii: "\"")) else { throw SyntaxError() }
    while index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "\""):
        index += 1
        return
      case UInt8(ascii: "\\"): index += 2
      default: index += 1
      }
    }
    throw SyntaxError()
  }

  /// A string's text with its escapes decoded (`"\u0061"` and `"a"` are the same key).
  private mutating func string() throws -> String {
    guard peek(UInt8(ascii: "\"")) else { throw SyntaxError() }
    var utf16: [UInt16] = []
    var raw: [UInt8] = []
    func flush() {
      utf16 += String(decoding: raw, as: UTF8.self).utf16
      raw = []
    }
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        flush()
        return String(decoding: utf16, as: UTF16.self)
      case UInt8(ascii: "\\"):
        guard index < bytes.count else { throw SyntaxError() }
        let escape = bytes[index]
        index += 1
        flush()
        switch escape {
        case UInt8(ascii: "u"):
          guard index + 4 <= bytes.count,
            let unit = UInt16(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
          else { throw SyntaxError() }
          index += 4
          utf16.append(unit)
        case UInt8(ascii: "n"): utf16.append(0x0A)
        case UInt8(ascii: "t"): utf16.append(0x09)
        case UInt8(ascii: "r"): utf16.append(0x0D)
        case UInt8(ascii: "b"): utf16.append(0x08)
        case UInt8(ascii: "f"): utf16.append(0x0C)
        default: utf16.append(UInt16(escape))
        }
      default:
        raw.append(byte)
      }
    }
    throw SyntaxError()
  }
}
