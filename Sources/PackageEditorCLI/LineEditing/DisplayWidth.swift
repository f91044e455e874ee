/// How many terminal columns a character takes: 0 for combining marks and zero-width
/// characters, 2 for East Asian wide and full-width characters and emoji, 1 otherwise. The
/// ranges are the common ones of `wcwidth`, kept small on purpose.
enum DisplayWidth {
  static func of(_ character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 0 }
    if character.unicodeScalars.count > 1,
      character.unicodeScalars.contains(where: {
        $0.properties.isEmojiPresentation || $0.value == 0xFE0F
      })
    {
      return 2
    }
    return of(first)
  }

  static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if value == 0x200B { return 0 }
    if scalar.properties.isEmojiPresentation { return 2 }
    switch value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return 2
    default: return 1
    }
  }

  /// The columns `text` takes.
  static func of(_ text: some Sequence<Character>) -> Int {
    text.reduce(0) { $0 + of($1) }
  }
}
