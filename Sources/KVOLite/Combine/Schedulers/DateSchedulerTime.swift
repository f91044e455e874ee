import Foundation

/// The time type of the Foundation schedulers (`RunLoop`, `OperationQueue`): a `Date`, with
/// distances in seconds.
public struct DateSchedulerTime: Strideable, Codable, Hashable, Sendable {
  /// The date.
  public var date: Date

  /// The time `date`.
  public init(_ date: Date) {
    self.date = date
  }

  public func distance(to other: DateSchedulerTime) -> Stride {
    Stride(floatLiteral: other.date.timeIntervalSince(date))
  }

  public func advanced(by n: Stride) -> DateSchedulerTime {
    DateSchedulerTime(date.addingTimeInterval(n.timeInterval))
  }

  /// A distance between dates, in seconds.
  public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
    Hashable, Codable, Sendable
  {
    /// The distance in seconds.
    public var magnitude: TimeInterval
    /// The distance in seconds.
    public var timeInterval: TimeInterval { magnitude }

    /// A distance of `timeInterval` seconds.
    public init(_ timeInterval: TimeInterval) { magnitude = timeInterval }
    public init(floatLiteral value: TimeInterval) { magnitude = value }
    public init(integerLiteral value: TimeInterval) { magnitude = value }
    public init?<T: BinaryInteger>(exactly source: T) {
      guard let value = TimeInterval(exactly: source) else { return nil }
      magnitude = value
    }

    public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
    public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
    public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
    public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
    public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
    public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
    public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

    public static func seconds(_ s: Int) -> Stride { Stride(TimeInterval(s)) }
    public static func seconds(_ s: Double) -> Stride { Stride(s) }
    public static func milliseconds(_ ms: Int) -> Stride { Stride(TimeInterval(ms) / 1_000) }
    public static func microseconds(_ us: Int) -> Stride { Stride(TimeInterval(us) / 1_000_000) }
    public static func nanoseconds(_ ns: Int) -> Stride { Stride(TimeInterval(ns) / 1_000_000_000) }
  }
}
