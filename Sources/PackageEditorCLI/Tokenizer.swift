/// Splits a command line into words: separated by spaces or tabs, with double quotes grouping
/// words (`"1 Main St"`) and, inside quotes, the escapes `\"`, `\\`, `\n`, `\r`, `\t` and
/// `\u{1F600}` (Swift's escapes: what the editor prints in quoted values reads back the same).
///
/// Rejects what cannot be a command: an unbalanced quote, an unknown escape, and control
/// characters (a tab is a separator).
enum Tokenizer {
  /// Why a line is not a list of words.
  enum Failure: Error, Equatable, CustomStringConvertible {
    case unbalancedQuote
    case unknownEscape(Unicode.Scalar)
    case controlCharacter(Unicode.Scalar)
    /// A `\u{…}` escape without 1 to 8 hexadecimal digits in braces, or not a Unicode scalar.
    case badUnicodeEscape(String)

    var description: String {
      switch self {
      case .unbalancedQuote: return "unbalanced quote: a quoted value needs a closing \""
      case .unknownEscape(let character):
        return
          "unknown escape \\\(character) in a quoted value (use \\\", \\\\, \\n, \\r, \\t or \\u{…})"
      case .badUnicodeEscape(let text):
        return
          "bad escape \\u\(text) in a quoted value (write a Unicode scalar in hexadecimal: \\u{1F600})"
      case .controlCharacter(let scalar):
        let code = String(scalar.value, radix: 16, uppercase: true)
        return
          "the line contains a control character (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code))"
      }
    }
  }

  /// Works on Unicode scalars, not characters: every character that matters is ASCII, and
  /// grapheme breaking would cost more than the rest of a command.
  static func words(_ line: String) throws(Failure) -> [String] {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    var inWord = false
    var inQuotes = false
    var escaping = false
    /// The text of a `\u` escape so far (from its `{`), while reading one.
    var unicodeEscape: String?
    for character in line.unicodeScalars {
      if character != "\t", character.value < 0x20 || character.value == 0x7F {
        throw .controlCharacter(character)
      }
      if var text = unicodeEscape {
        text.unicodeScalars.append(character)
        unicodeEscape = text
        if text == "{" { continue }
        guard text.first == "{", text.count <= 10 else { throw .badUnicodeEscape(text) }
        guard character == "}" else { continue }
        guard let value = UInt32(text.dropFirst().dropLast(), radix: 16),
          let scalar = Unicode.Scalar(value)
        else { throw .badUnicodeEscape(text) }
        current.append(scalar)
        unicodeEscape = nil
      } else if escaping {
        switch character {
        case "\"", "\\": current.append(character)
        case "n": current.append("\n")
        case "r": current.append("\r")
        case "t": current.append("\t")
        case "u": unicodeEscape = ""
        default: throw .unknownEscape(character)
        }
        escaping = false
      } else if inQuotes {
        switch character {
        case "\\": escaping = true
        case "\"": inQuotes = false
        default: current.append(character)
        }
      } else {
        switch character {
        case " ", "\t":
          if inWord {
            words.append(String(current))
            current = String.UnicodeScalarView()
            inWord = false
          }
        case "\"":
          inQuotes = true
          inWord = true
        default:
          current.append(character)
          inWord = true
        }
      }
    }
    if let text = unicodeEscape { throw .badUnicodeEscape(text) }
    if inQuotes || escaping { throw .unbalancedQuote }
    if inWord { words.append(String(current)) }
    return words
  }
}
