import Testing

/// A string that a parameterized test takes, named in the test report on one short line: as a
/// Swift string literal, with line breaks, control, format and separator characters escaped
/// (`"a\nb"`, `"\u{1B}[2J"`), cut after `limit` characters with `…`.
///
/// Swift Testing names a `String` argument by the string itself, so a JSON document took one
/// line of the report per line of the document, and an escape sequence reached the terminal.
public struct OneLineText: Sendable, Equatable, CustomTestStringConvertible,
  ExpressibleByStringLiteral
{
  /// The string the test uses.
  public let value: String

  /// The most characters the report shows.
  public static let limit = 60

  /// The text `value`.
  public init(_ value: String) {
    self.value = value
  }

  /// The text of a string literal.
  public init(stringLiteral value: String) {
    self.value = value
  }

  /// `value` as an escaped Swift string literal, at most ``limit`` characters.
  public var testDescription: String {
    var literal = "\""
    for scalar in value.unicodeScalars {
      literal += Self.escaped(scalar)
    }
    literal += "\""
    return literal.count <= Self.limit ? literal : literal.prefix(Self.limit - 1) + "…"
  }

  /// `scalar` as it is in a string literal: escaped when it is a quote, a backslash, or a
  /// character that does not show as itself on one line.
  static func escaped(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    case "\"": return "\\\""
    case "\\": return "\\\\"
    default:
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse,
        .unassigned:
        return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: return String(scalar)
      }
    }
  }
}
