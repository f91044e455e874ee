/// The integer types share one implementation: strict, overflow-checked parsing.
public protocol KeyValueTextConvertibleInteger: FixedWidthInteger, KeyValueTextConvertible {}

extension KeyValueTextConvertibleInteger {
  /// The value `text` spells, or `nil` if it is not one.
  public init?(keyValueText text: String) {
    guard let value = Self(text, radix: 10) else { return nil }
    self = value
  }
  /// The value as key-value text: what `init?(keyValueText:)` reads back.
  public var keyValueText: String { description }
}

extension Int: KeyValueTextConvertibleInteger {}
extension Int8: KeyValueTextConvertibleInteger {}
extension Int16: KeyValueTextConvertibleInteger {}
extension Int32: KeyValueTextConvertibleInteger {}
extension Int64: KeyValueTextConvertibleInteger {}
extension UInt: KeyValueTextConvertibleInteger {}
extension UInt8: KeyValueTextConvertibleInteger {}
extension UInt16: KeyValueTextConvertibleInteger {}
extension UInt32: KeyValueTextConvertibleInteger {}
extension UInt64: KeyValueTextConvertibleInteger {}
