/// Turns a terminal's bytes into ``Key``s: UTF-8 characters, control keys, and the escape
/// sequences of arrows, Home/End and Delete in their common forms (`ESC [ A`, `ESC O H`,
/// `ESC [ 1 ~`, `ESC [ 1 ; 5 C`…). Incomplete input is kept until more bytes arrive.
struct KeyDecoder {
  private var pending: [UInt8] = []

  /// The keys completed by `bytes` (with what was pending before).
  mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending += bytes
    var keys: [Key] = []
    while let (key, length) = KeyDecoder.decode(pending[...]) {
      keys.append(key)
      pending.removeFirst(length)
    }
    return keys
  }

  /// Whether bytes of an unfinished key are waiting (a lone ESC, say).
  var hasPending: Bool { !pending.isEmpty }

  /// Ends an unfinished key when no more bytes come: a lone ESC is dropped, as is any
  /// incomplete sequence.
  mutating func flush() -> [Key] {
    defer { pending = [] }
    return pending.isEmpty ? [] : [.unknown]
  }

  /// The first key of `bytes` and its length, or `nil` if it is not complete yet.
  static func decode(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    guard let first = bytes.first else { return nil }
    switch first {
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x09: return (.tab, 1)
    case 0x1B: return escape(bytes)
    case 0x01...0x1A: return (.control(Character(Unicode.Scalar(first + 0x60))), 1)
    case 0x00, 0x1C...0x1F: return (.unknown, 1)
    default: return utf8(bytes)
    }
  }

  private static func utf8(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    let first = bytes.first!
    let length =
      switch first {
      case 0..<0x80: 1
      case 0xC2...0xDF: 2
      case 0xE0...0xEF: 3
      case 0xF0...0xF4: 4
      default: 0
      }
    guard length > 0 else { return (.unknown, 1) }
    guard bytes.count >= length else { return nil }
    let slice = bytes.prefix(length)
    guard let text = String(validating: slice, as: UTF8.self), let character = text.first else {
      return (.unknown, 1)
    }
    return (.character(character), length)
  }

  private static func escape(_ bytes: ArraySlice<UInt8>) -> (Key, Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return nil }
    let second = bytes[start + 1]
    switch second {
    case UInt8(ascii: "["), UInt8(ascii: "O"):
      // A control sequence: parameters (digits and `;`), then a final byte.
      var index = start + 2
      while index < bytes.endIndex, (0x30...0x3F).contains(bytes[index]) { index += 1 }
      guard index < bytes.endIndex else { return nil }
      let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
      let final = bytes[index]
      let modified = parameters.hasSuffix(";5") || parameters.hasSuffix(";3")
      let key: Key
      switch final {
      case UInt8(ascii: "A"): key = .up
      case UInt8(ascii: "B"): key = .down
      case UInt8(ascii: "C"): key = modified ? .wordRight : .right
      case UInt8(ascii: "D"): key = modified ? .wordLeft : .left
      case UInt8(ascii: "H"): key = .home
      case UInt8(ascii: "F"): key = .end
      case UInt8(ascii: "~"):
        switch parameters.split(separator: ";").first {
        case "1", "7": key = .home
        case "4", "8": key = .end
        case "3": key = .delete
        default: key = .unknown
        }
      default: key = .unknown
      }
      return (key, index - start + 1)
    case UInt8(ascii: "b"), UInt8(ascii: "B"): return (.wordLeft, 2)
    case UInt8(ascii: "f"), UInt8(ascii: "F"): return (.wordRight, 2)
    case 0x7F, 0x08: return (.altBackspace, 2)
    case 0x1B: return (.unknown, 1)
    default: return (.unknown, 2)
    }
  }
}
