/// A namespace for types related to subscribers, as in Combine.
public enum Subscribers {}

extension Subscribers {
  /// How many more values a subscriber is ready to receive: a number, or ``unlimited``.
  ///
  /// Arithmetic is Combine's: adding to ``unlimited`` stays unlimited, subtracting from it too;
  /// subtracting more than a finite demand gives ``none``. A negative count is a programming
  /// error and traps.
  public struct Demand: Equatable, Comparable, Hashable, Sendable, CustomStringConvertible {
    /// `nil` means unlimited.
    @usableFromInline let rawValue: Int?

    @inlinable init(rawValue: Int?) { self.rawValue = rawValue }

    /// As many values as the publisher can produce.
    public static let unlimited = Demand(rawValue: nil)
    /// No values.
    public static let none = Demand(rawValue: 0)

    /// At most `value` values; `value` must not be negative.
    @inlinable
    public static func max(_ value: Int) -> Demand {
      precondition(value >= 0, "demand cannot be negative")
      return Demand(rawValue: value)
    }

    /// The number of values, or `nil` for ``unlimited``.
    @inlinable public var max: Int? { rawValue }

    public var description: String { rawValue.map { "max(\($0))" } ?? "unlimited" }

    @inlinable
    public static func + (lhs: Demand, rhs: Demand) -> Demand {
      guard let a = lhs.rawValue, let b = rhs.rawValue else { return .unlimited }
      let (sum, overflow) = a.addingReportingOverflow(b)
      return overflow ? .unlimited : Demand(rawValue: sum)
    }

    @inlinable public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }
    @inlinable public static func + (lhs: Demand, rhs: Int) -> Demand { lhs + .max(rhs) }
    @inlinable public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

    @inlinable
    public static func - (lhs: Demand, rhs: Demand) -> Demand {
      guard let a = lhs.rawValue else { return .unlimited }
      guard let b = rhs.rawValue else { return .none }
      return Demand(rawValue: Swift.max(0, a - b))
    }

    @inlinable public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }
    @inlinable public static func - (lhs: Demand, rhs: Int) -> Demand { lhs - .max(rhs) }
    @inlinable public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

    @inlinable
    public static func < (lhs: Demand, rhs: Demand) -> Bool {
      switch (lhs.rawValue, rhs.rawValue) {
      case (nil, _): false
      case (_, nil): true
      case (let a?, let b?): a < b
      }
    }

    @inlinable public static func == (lhs: Demand, rhs: Int) -> Bool { lhs.rawValue == rhs }
    @inlinable public static func > (lhs: Demand, rhs: Int) -> Bool { lhs > .max(rhs) }
    @inlinable public static func < (lhs: Demand, rhs: Int) -> Bool { lhs < .max(rhs) }
  }

  /// How a publisher ended: normally, or with an error.
  public enum Completion<Failure: Error> {
    case finished
    case failure(Failure)
  }
}

extension Subscribers.Completion: Equatable where Failure: Equatable {}
extension Subscribers.Completion: Hashable where Failure: Hashable {}
extension Subscribers.Completion: Sendable where Failure: Sendable {}
