/// Splits a command line into words: separated by spaces or tabs, with double quotes grouping
/// words (`"1 Main St"`) and, inside them, the escapes `\"`, `\\`, `\n`, `\r`, `\t` and
/// `\u{1F600}` (Swift's escapes: what the editor prints in quoted values reads back the same).
/// Single quotes group words as in a shell: everything up to the next `'` is taken as it is
/// (`'C:\dir'`, `'say "hi"'`).
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
      case .unbalancedQuote: return "unbalanced quote: a quoted value needs its closing quote"
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

  /// The commands of `line`: its parts between the `;` that are outside quotes, as the
  /// shell and `psql` read `a; b`. A line without `;` is one command (found without decoding
  /// it). An unbalanced quote keeps the rest of the line in its command, whose words then
  /// report it.
  static func commands(_ line: String) -> [Substring] {
    guard line.utf8.contains(UInt8(ascii: ";")) else { return [line[...]] }
    var commands: [Substring] = []
    var start = line.startIndex
    var quote: Character?
    var escaping = false
    for index in line.indices {
      let character = line[index]
      if escaping {
        escaping = false
      } else if let open = quote {
        if character == "\\", open == "\"" {
          escaping = true
        } else if character == open {
          quote = nil
        }
      } else if character == "\"" || character == "'" {
        quote = character
      } else if character == ";" {
        commands.append(line[start..<index])
        start = line.index(after: index)
      }
    }
    commands.append(line[start...])
    return commands
  }

  /// The words of `line`. Works on Unicode scalars, not characters: every character that
  /// matters is ASCII, and grapheme breaking would cost more than the rest of a command. A word
  /// is collected as UTF-8 bytes and made a `String` once, when it ends (appending scalar by
  /// scalar to a `String` cost about 300 instructions a scalar, more than the command the line
  /// then runs).
  static func words(_ line: String) throws(Failure) -> [String] {
    var copy = line
    switch copy.withUTF8(plainWords) {
    case .words(let words): return words
    case .failure(let failure): throw failure
    case .hasEscapes: return try scalarWords(line)
    }
  }

  /// ``words(_:)``, read scalar by scalar: the reference for every line, and the reader of lines
  /// with escapes.
  static func scalarWords(_ line: String) throws(Failure) -> [String] {
    var words: [String] = []
    var current = Word()
    var inWord = false
    var inQuotes = false
    var inSingleQuotes = false
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
      } else if inSingleQuotes {
        if character == "'" { inSingleQuotes = false } else { current.append(character) }
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
            words.append(current.take())
            inWord = false
          }
        case "\"":
          inQuotes = true
          inWord = true
        case "'":
          inSingleQuotes = true
          inWord = true
        default:
          current.append(character)
          inWord = true
        }
      }
    }
    if let text = unicodeEscape { throw .badUnicodeEscape(text) }
    if inQuotes || inSingleQuotes || escaping { throw .unbalancedQuote }
    if inWord { words.append(current.take()) }
    return words
  }

  /// What the byte-level scan of a line found.
  private enum PlainScan {
    case words([String])
    case failure(Failure)
    /// The line has a backslash or a single quote: it is read scalar by scalar.
    case hasEscapes
  }

  /// The words of a line without a backslash or a single quote, read from its UTF-8 bytes: the same rules as
  /// ``scalarWords(_:)`` without escapes (every byte below 0x20 or 0x7F is an ASCII
  /// control character, since the bytes of other scalars are 0x80 or more). Most lines have no
  /// backslash, and this reads them about three times faster.
  private static func plainWords(_ line: UnsafeBufferPointer<UInt8>) -> PlainScan {
    var words: [String] = []
    // The current word's bytes so far, copied a run at a time: a run is the bytes between two
    // quotes, separators or ends.
    var current: [UInt8] = []
    var runStart = 0
    var inWord = false
    var inQuotes = false
    for index in line.indices {
      let byte = line[index]
      let isSeparator = byte == 0x20 || byte == 0x09
      if byte == 0x22 || (isSeparator && !inQuotes) {
        current.append(contentsOf: UnsafeBufferPointer(rebasing: line[runStart..<index]))
        runStart = index + 1
        if byte == 0x22 {
          inQuotes.toggle()
          inWord = true
        } else if inWord {
          words.append(String(decoding: current, as: UTF8.self))
          current.removeAll(keepingCapacity: true)
          inWord = false
        }
      } else if byte == 0x5C || byte == 0x27 {
        return .hasEscapes  // A backslash or a single quote: read scalar by scalar.
      } else if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
        return .failure(.controlCharacter(Unicode.Scalar(byte)))
      } else {
        inWord = true
      }
    }
    if inQuotes { return .failure(.unbalancedQuote) }
    if inWord {
      current.append(contentsOf: UnsafeBufferPointer(rebasing: line[runStart...]))
      words.append(String(decoding: current, as: UTF8.self))
    }
    return .words(words)
  }

  /// The UTF-8 bytes of the word being read.
  private struct Word {
    private var bytes: [UInt8] = []

    mutating func append(_ scalar: Unicode.Scalar) {
      if scalar.isASCII {
        bytes.append(UInt8(truncatingIfNeeded: scalar.value))
      } else {
        UTF8.encode(scalar) { bytes.append($0) }
      }
    }

    /// The word as a `String`, leaving this empty (its storage kept for the next word).
    mutating func take() -> String {
      defer { bytes.removeAll(keepingCapacity: true) }
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}
