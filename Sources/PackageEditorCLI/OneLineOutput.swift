/// Wraps an ``EditorOutput`` so that every line it prints is one line of plain text.
///
/// A value typed by the user or loaded from a file may hold a newline, a carriage return, an
/// escape sequence or another control character. Printed raw, it could start a line that looks
/// like the editor's own (`error: …`), or reach the terminal and change its title or colours.
/// Every line passes through ``escaped(_:)`` on its way out, whatever printed it, so that
/// cannot happen even where a caller forgot to quote.
final class OneLineOutput: EditorOutput {
  let base: EditorOutput

  init(_ base: EditorOutput) {
    self.base = base
  }

  /// `output`, wrapped unless it already is.
  static func wrapping(_ output: EditorOutput) -> OneLineOutput {
    output as? OneLineOutput ?? OneLineOutput(output)
  }

  func line(_ text: String) { base.line(OneLineOutput.escaped(text)) }
  func watch(_ text: String) { base.watch(OneLineOutput.escaped(text)) }
  func summary(_ text: String) { base.summary(OneLineOutput.escaped(text)) }
  func error(_ message: String) { base.error(OneLineOutput.escaped(message)) }
  func error(_ message: String, at location: String) {
    base.error(OneLineOutput.escaped(message), at: OneLineOutput.escaped(location))
  }
  func warning(_ message: String) { base.warning(OneLineOutput.escaped(message)) }
  func flush() { base.flush() }
  var failure: String? { base.failure }

  /// Whether `scalar` must not reach the output raw: the C0 and C1 control characters, DEL, the
  /// Unicode line and paragraph separators, the bidirectional formatting characters (which can
  /// make a line read differently from what it holds: U+061C, U+200E, U+200F, U+202A–U+202E,
  /// U+2066–U+2069), and the invisible ones that can hide a difference (U+180E, U+200B,
  /// U+2060–U+2064, U+FEFF). The joiners U+200C and U+200D stay: scripts and emoji need them.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    isControl(value: scalar.value)
  }

  /// ``isControl(_:)`` of the scalar with this value.
  private static func isControl(value: UInt32) -> Bool {
    switch value {
    case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069,
      0x061C, 0x180E, 0x200B, 0x2060...0x2064, 0xFEFF:
      true
    default: false
    }
  }

  /// Whether `text` holds any character that ``isControl(_:)``.
  ///
  /// Every printed line is checked, so this reads the UTF-8 bytes rather than decoding scalars
  /// (about twice as fast): a control character is a byte below 0x20 or 0x7F, a C1 control
  /// (`C2 80`…`C2 9F`), one of the separators, bidirectional and invisible controls that are
  /// `E2 80 xx` or `E2 81 xx`, or U+061C (`D8 9C`), U+180E (`E1 A0 8E`) or U+FEFF (`EF BB BF`).
  /// A valid UTF-8 continuation byte is never a lead byte, so a lead byte can be recognized
  /// anywhere.
  static func hasControl(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      for index in bytes.indices {
        switch bytes[index] {
        case 0..<0x20, 0x7F: return true
        case 0xC2 where index + 1 < bytes.count && bytes[index + 1] <= 0x9F: return true
        case 0xE2 where index + 2 < bytes.count && bytes[index + 1] <= 0x81:
          let value =
            0x2000 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
          if isControl(value: value) { return true }
        case 0xD8 where index + 1 < bytes.count && bytes[index + 1] == 0x9C: return true
        case 0xE1
        where index + 2 < bytes.count && bytes[index + 1] == 0xA0
          && bytes[index + 2] == 0x8E:
          return true
        case 0xEF
        where index + 2 < bytes.count && bytes[index + 1] == 0xBB
          && bytes[index + 2] == 0xBF:
          return true
        default: continue
        }
      }
      return false
    }
  }

  /// `text` with each control character written as a Swift escape: `\n`, `\r`, `\t`, and
  /// `\u{1b}` for the others. Text without one is returned as it is.
  static func escaped(_ text: String) -> String {
    guard hasControl(text) else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      result += escape(scalar) ?? String(scalar)
    }
    return result
  }

  /// The escape of a control character, or `nil` for any other character.
  static func escape(_ scalar: Unicode.Scalar) -> String? {
    switch scalar {
    case "\n": "\\n"
    case "\r": "\\r"
    case "\t": "\\t"
    case _ where isControl(scalar): "\\u{" + String(scalar.value, radix: 16) + "}"
    default: nil
    }
  }
}
