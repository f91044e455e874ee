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
  /// The value `text` spells, or `nil` if it is not one.
  public init?(keyValueText text: String) {
    guard let value = Double(text), !text.contains(where: \.isWhitespace) else { return nil }
    self = value
  }
  /// The value as key-value text: what `init?(keyValueText:)` reads back.
  public var keyValueText: String { description }
}

extension Float: KeyValueTextConvertible {
  /// The value `text` spells, or `nil` if it is not one.
  public init?(keyValueText text: String) {
    guard let value = Float(text), !text.contains(where: \.isWhitespace) else { return nil }
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
      let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
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
