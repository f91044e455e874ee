import Foundation

/// Converts a number to another number type for key-value coding, as Foundation's `NSNumber`
/// does for `setValue(_:forKey:)` — but only where the value survives: `Int` ⇄ `Double` ⇄
/// `Float` ⇄ `Decimal` ⇄ `Bool`, and every fixed-width integer.
///
/// - Integers take integers in range and floating-point or decimal values that are whole and in
///   range: `8.0` sets an `Int`, `8.5` does not (no truncation).
/// - `Double` and `Float` take integers they hold exactly, other floating-point values that do
///   not overflow (a `Double` rounds to the nearest `Float`, as a literal would), and decimals.
/// - `Decimal` takes integers and finite floating-point values within its range.
/// - `Bool` takes 0 and 1 (of any number type), and gives 0 or 1.
///
/// A value that would overflow to infinity, become NaN, or underflow from non-zero to zero is
/// refused (``Outcome/notRepresentable``): it would not survive.
enum NumberConversion {
  enum Outcome {
    /// The value as the target type (boxed).
    case converted(Any)
    /// The value is a number, but the target type cannot hold it.
    case notRepresentable
    /// The value is not a number, or the target type is not a number type.
    case notANumber
  }

  /// A number, by kind.
  private enum Source {
    case bool(Bool)
    case integer(any BinaryInteger)
    case floating(Double)
    case decimal(Decimal)

    init?(_ value: Any) {
      switch value {
      case let value as Bool: self = .bool(value)
      case let value as any BinaryInteger: self = .integer(value)
      case let value as Double: self = .floating(value)
      case let value as Float: self = .floating(Double(value))
      case let value as Decimal: self = .decimal(value)
      default: return nil
      }
    }

    /// The floating-point value, for the checks of a narrowing conversion; `nil` for an integer
    /// or a Boolean, which never overflow a `Float` nor underflow.
    var magnitude: Double? {
      switch self {
      case .floating(let value): value
      case .decimal(let value): NSDecimalNumber(decimal: value).doubleValue
      case .bool, .integer: nil
      }
    }
  }

  /// `value` as a value of `target`.
  static func convert(_ value: Any, to target: Any.Type) -> Outcome {
    guard let source = Source(value) else { return .notANumber }
    if target == Bool.self { return boolean(source) }
    if target == Decimal.self { return decimal(source) }
    if let integerType = target as? any BinaryInteger.Type { return integer(source, integerType) }
    if target == Double.self {
      return floating(source, Double.self)
    }
    if target == Float.self {
      return floating(source, Float.self)
    }
    return .notANumber
  }

  private static func boolean(_ source: Source) -> Outcome {
    let zeroOrOne: Int? =
      switch source {
      case .bool(let value): value ? 1 : 0
      case .integer(let value): Int(exactly: value)
      case .floating(let value): Int(exactly: value)
      case .decimal(let value): value == 0 ? 0 : value == 1 ? 1 : nil
      }
    guard let zeroOrOne, zeroOrOne == 0 || zeroOrOne == 1 else { return .notRepresentable }
    return .converted(zeroOrOne == 1)
  }

  private static func decimal(_ source: Source) -> Outcome {
    switch source {
    case .bool(let value): return .converted(Decimal(value ? 1 : 0))
    case .integer(let value):
      if let small = Int64(exactly: value) { return .converted(Decimal(small)) }
      if let large = UInt64(exactly: value) { return .converted(Decimal(large)) }
      return .notRepresentable
    case .floating(let value):
      // Foundation's Decimal has a narrower range than Double: out of it, it gives NaN (1e300)
      // or loses a tiny value.
      guard value.isFinite else { return .notRepresentable }
      let converted = Decimal(value)
      return converted.isNaN || (converted == 0) != (value == 0)
        ? .notRepresentable : .converted(converted)
    case .decimal(let value): return .converted(value)
    }
  }

  private static func integer<Target: BinaryInteger>(_ source: Source, _: Target.Type) -> Outcome {
    let converted: Target? =
      switch source {
      case .bool(let value): value ? 1 : 0
      case .integer(let value): Target(exactly: value)
      case .floating(let value): Target(exactly: value)
      case .decimal(let value):
        // Whole decimals only: their description has no fraction or exponent.
        value.isNaN ? nil : Int64(value.description).flatMap { Target(exactly: $0) }
      }
    return converted.map { .converted($0) } ?? .notRepresentable
  }

  private static func floating<Target: BinaryFloatingPoint>(_ source: Source, _: Target.Type)
    -> Outcome
  {
    let converted: Target? =
      switch source {
      case .bool(let value): value ? 1 : 0
      case .integer(let value): Target(exactly: value)
      case .floating(let value): Target(value)
      case .decimal(let value):
        value.isNaN ? nil : Target(NSDecimalNumber(decimal: value).doubleValue)
      }
    guard let converted else { return .notRepresentable }
    // Rounds to the nearest value of a narrower type, but never overflows to infinity nor
    // underflows to zero (a NaN or an infinity stays one).
    let original = source.magnitude
    if converted.isInfinite, original?.isInfinite == false { return .notRepresentable }
    if converted == 0, let original, original != 0, !original.isNaN { return .notRepresentable }
    return .converted(converted)
  }
}
