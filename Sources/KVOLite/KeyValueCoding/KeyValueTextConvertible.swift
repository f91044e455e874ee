import Foundation

/// A value that can be written as text and parsed back: what `setValue(fromText:forKeyPath:)`
/// and a command line need.
///
/// `String`, the integer types, `Double`, `Float`, `Bool` and `Decimal` conform, and so do
/// optionals of conforming types (`nil` is the text `nil`). A `RawRepresentable` enum whose raw
/// value conforms gets the conversion for free once it declares the conformance:
///
///     enum Priority: String, KeyValueTextConvertible { case low, high }
///
/// Parsing is strict: no surrounding white space, no trailing garbage, no overflow.
public protocol KeyValueTextConvertible {
  /// Parses `text`, or returns `nil` if it is not a valid value.
  init?(keyValueText text: String)
  /// The value as text that parses back to it.
  var keyValueText: String { get }
}

extension String: KeyValueTextConvertible {
  /// The value `text` spells, or `nil` if it is not one.
  public init?(keyValueText text: String) { self = text }
  /// The value as key-value text: what `init?(keyValueText:)` reads back.
  public var keyValueText: String { self }
}

extension Bool: KeyValueTextConvertible {
  /// Accepts `true`/`false`, `yes`/`no` and `1`/`0`.
  public init?(keyValueText text: String) {
    switch text {
    case "true", "yes", "1": self = true
    case "false", "no", "0": self = false
    default: return nil
    }
  }
  /// The value as key-value text: what `init?(keyValueText:)` reads back.
  public var keyValueText: String { self ? "true" : "false" }
}

extension Double: KeyValueTextConvertible {
  /// The value `text` spells, or `nil` if it is not one, or if the value does not survive:
  /// a finite number too large for a `Double` (`1e400`, not infinity) or a non-zero one too
  /// small (`1e-400`, not 0). `inf` and `nan` spell themselves.
  public init?(keyValueText text: String) {
    guard let value = Double(text), !text.contains(where: \.isWhitespace),
      FloatingPointText.survives(value, text)
    else { return nil }
    self = value
  }
  /// The value as key-value text: what `init?(keyValueText:)` reads back.
  public var keyValueText: String { description }
}

extension Float: KeyValueTextConvertible {
  /// The value `text` spells, or `nil` if it is not one, or if it does not survive (as for
  /// `Double`: `1e39` and `1e-50` are refused).
  public init?(keyValueText text: String) {
    guard let value = Float(text), !text.contains(where: \.isWhitespace),
      FloatingPointText.survives(value, text)
    else { return nil }
    self = value
  }
  /// The value as key-value text: what `init?(keyValueText:)` reads back.
  public var keyValueText: String { description }
}

extension Decimal: KeyValueTextConvertible {
  /// Accepts plain decimal notation (`-12.50`, `3e2`), independent of the locale.
  public init?(keyValueText text: String) {
    let pattern = #"^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$"#
    guard text.range(of: pattern, options: .regularExpression) != nil,
      let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
      !value.isNaN, (value == 0) == !FloatingPointText.hasNonZeroDigit(text)
    else { return nil }
    self = value
  }
  /// The value as key-value text: what `init?(keyValueText:)` reads back.
  public var keyValueText: String { description }
}

extension Optional: KeyValueTextConvertible where Wrapped: KeyValueTextConvertible {
  /// `nil` is the text `nil`; anything else parses as `Wrapped`.
  public init?(keyValueText text: String) {
    if text == "nil" {
      self = .none
    } else if let value = Wrapped(keyValueText: text) {
      self = .some(value)
    } else {
      return nil
    }
  }
  /// The value as key-value text: what `init?(keyValueText:)` reads back.
  public var keyValueText: String { map(\.keyValueText) ?? "nil" }
}

extension KeyValueTextConvertible where Self: RawRepresentable, RawValue: KeyValueTextConvertible {
  /// The value `text` spells, or `nil` if it is not one.
  public init?(keyValueText text: String) {
    guard let raw = RawValue(keyValueText: text) else { return nil }
    self.init(rawValue: raw)
  }
  /// The value as key-value text: what `init?(keyValueText:)` reads back.
  public var keyValueText: String { rawValue.keyValueText }
}

/// Whether a number parsed from text is the number the text spells, give or take rounding.
private enum FloatingPointText {
  /// Whether `value`, parsed from `text`, survived: it is infinite only if the text spells
  /// infinity, and zero only if the text has no non-zero digit.
  static func survives<Value: BinaryFloatingPoint>(_ value: Value, _ text: String) -> Bool {
    if value.isInfinite { return text.lowercased().contains("inf") }
    if value == 0 { return !hasNonZeroDigit(text) }
    return true
  }

  /// Whether the significand of `text` (before any exponent) has a digit other than 0. A
  /// hexadecimal significand (`0x1p-2000`) counts its hexadecimal digits.
  static func hasNonZeroDigit(_ text: String) -> Bool {
    let lowered = text.lowercased()
    let isHexadecimal = lowered.contains("0x")
    let digits = lowered.replacingOccurrences(of: "0x", with: "")
    let significand = digits.prefix { isHexadecimal ? $0 != "p" : $0 != "e" }
    return significand.contains { $0 != "0" && (isHexadecimal ? $0.isHexDigit : $0.isNumber) }
  }
}
