import KVOLiteLocking

/// A namespace for types related to subscribers, as in Combine.
public enum Subscribers {}

extension Subscribers {
  /// How many more values a subscriber is ready to receive: a number, or ``unlimited``.
  ///
  /// Arithmetic is Combine's, and never traps once a demand exists: anything added to
  /// ``unlimited`` or subtracted from it leaves it unlimited; a sum or product that overflows
  /// `Int` is ``unlimited``; a difference that would be negative, or that overflows, is
  /// ``none``; subtracting ``unlimited`` from a finite demand gives ``none``. Only making a
  /// demand from a negative number (``max(_:)``) traps, as in Combine. An ``unlimited`` demand
  /// equals no integer and is greater than every one.
  public struct Demand: Equatable, Comparable, Hashable, Sendable, Codable, CustomStringConvertible
  {
    /// `nil` means unlimited.
    @usableFromInline let rawValue: Int?

    @inlinable init(rawValue: Int?) { self.rawValue = rawValue }

    /// As many values as the publisher can produce.
    public static let unlimited = Demand(rawValue: nil)
    /// No values.
    public static let none = Demand(rawValue: 0)

    /// At most `value` values.
    /// - Precondition: `value` is not negative.
    @inlinable
    public static func max(_ value: Int) -> Demand {
      require(value >= 0, "demand cannot be negative")
      return Demand(rawValue: value)
    }

    /// The number of values, or `nil` for ``unlimited``.
    @inlinable public var max: Int? { rawValue }

    /// `max(n)` or `unlimited`, as Combine prints demands.
    public var description: String { rawValue.map { "max(\($0))" } ?? "unlimited" }

    /// The demand `Int` arithmetic gives, clamped as the type's documentation says.
    @inlinable
    static func clamped(_ result: (partialValue: Int, overflow: Bool), overflowIsUnlimited: Bool)
      -> Demand
    {
      if result.overflow { return overflowIsUnlimited ? .unlimited : .none }
      return Demand(rawValue: Swift.max(0, result.partialValue))
    }

    /// The sum; unlimited if either is, or if it overflows.
    @inlinable
    public static func + (lhs: Demand, rhs: Demand) -> Demand {
      guard let a = lhs.rawValue, let b = rhs.rawValue else { return .unlimited }
      return clamped(a.addingReportingOverflow(b), overflowIsUnlimited: true)
    }

    /// The sum with an integer (which may be negative); unlimited stays unlimited.
    @inlinable
    public static func + (lhs: Demand, rhs: Int) -> Demand {
      guard let a = lhs.rawValue else { return .unlimited }
      return clamped(a.addingReportingOverflow(rhs), overflowIsUnlimited: rhs > 0)
    }

    /// The difference; unlimited minus anything is unlimited, a finite demand minus unlimited
    /// is none.
    @inlinable
    public static func - (lhs: Demand, rhs: Demand) -> Demand {
      guard let a = lhs.rawValue else { return .unlimited }
      guard let b = rhs.rawValue else { return .none }
      return clamped(a.subtractingReportingOverflow(b), overflowIsUnlimited: false)
    }

    /// The difference with an integer; unlimited stays unlimited; an overflow gives none.
    @inlinable
    public static func - (lhs: Demand, rhs: Int) -> Demand {
      guard let a = lhs.rawValue else { return .unlimited }
      return clamped(a.subtractingReportingOverflow(rhs), overflowIsUnlimited: false)
    }

    /// The product; unlimited stays unlimited; an overflow gives unlimited.
    @inlinable
    public static func * (lhs: Demand, rhs: Int) -> Demand {
      guard let a = lhs.rawValue else { return .unlimited }
      return clamped(a.multipliedReportingOverflow(by: rhs), overflowIsUnlimited: true)
    }

    /// Adds the right-hand side to the left-hand side.
    @inlinable public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }
    /// Adds the right-hand side to the left-hand side, with ``Subscribers/Demand``'s saturating arithmetic.
    @inlinable public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }
    /// Subtracts the right-hand side from the left-hand side.
    @inlinable public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }
    /// Subtracts the right-hand side from the left-hand side, with ``Subscribers/Demand``'s saturating arithmetic.
    @inlinable public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }
    /// Multiplies the left-hand side by the right-hand side, with ``Subscribers/Demand``'s saturating arithmetic.
    @inlinable public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

    /// Unlimited is greater than every finite demand and not less than itself.
    @inlinable
    public static func < (lhs: Demand, rhs: Demand) -> Bool {
      switch (lhs.rawValue, rhs.rawValue) {
      case (nil, _): false
      case (_, nil): true
      case (let a?, let b?): a < b
      }
    }

    /// Whether the demand is exactly that many values (`.unlimited` equals no `Int`).
    @inlinable public static func == (lhs: Demand, rhs: Int) -> Bool { lhs.rawValue == rhs }
    /// Whether the demand is not exactly that many values (`.unlimited` equals no `Int`).
    @inlinable public static func != (lhs: Demand, rhs: Int) -> Bool { lhs.rawValue != rhs }
    /// Whether the demand is exactly that many values (`.unlimited` equals no `Int`).
    @inlinable public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }
    /// Whether the demand is not exactly that many values (`.unlimited` equals no `Int`).
    @inlinable public static func != (lhs: Int, rhs: Demand) -> Bool { rhs != lhs }
    /// Whether the left-hand side is less than the right-hand side (`.unlimited` is greater than every `Int`).
    @inlinable public static func < (lhs: Demand, rhs: Int) -> Bool {
      lhs.rawValue.map { $0 < rhs } ?? false
    }
    /// Whether the left-hand side is at most the right-hand side (`.unlimited` is greater than every `Int`).
    @inlinable public static func <= (lhs: Demand, rhs: Int) -> Bool {
      lhs.rawValue.map { $0 <= rhs } ?? false
    }
    /// Whether the left-hand side is greater than the right-hand side (`.unlimited` is greater than every `Int`).
    @inlinable public static func > (lhs: Demand, rhs: Int) -> Bool {
      lhs.rawValue.map { $0 > rhs } ?? true
    }
    /// Whether the left-hand side is at least the right-hand side (`.unlimited` is greater than every `Int`).
    @inlinable public static func >= (lhs: Demand, rhs: Int) -> Bool {
      lhs.rawValue.map { $0 >= rhs } ?? true
    }
    /// Whether the left-hand side is less than the right-hand side (`.unlimited` is greater than every `Int`).
    @inlinable public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }
    /// Whether the left-hand side is at most the right-hand side (`.unlimited` is greater than every `Int`).
    @inlinable public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }
    /// Whether the left-hand side is greater than the right-hand side (`.unlimited` is greater than every `Int`).
    @inlinable public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }
    /// Whether the left-hand side is at least the right-hand side (`.unlimited` is greater than every `Int`).
    @inlinable public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }

    /// Combine's encoding: one unsigned integer, `Int.max + 1` for unlimited.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue.map(UInt.init) ?? Demand.unlimitedCode)
    }

    /// Decodes Combine's encoding: a count up to `Int.max` is `.max` of it, any count above
    /// `.unlimited` (as in Combine); a negative number is an error.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      let code = try container.decode(UInt.self)
      self = code > UInt(Int.max) ? .unlimited : .max(Int(code))
    }

    @usableFromInline static let unlimitedCode = UInt(Int.max) + 1
  }
}
