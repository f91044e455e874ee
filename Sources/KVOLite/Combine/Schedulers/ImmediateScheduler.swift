/// A scheduler that runs every action at once, on the calling thread: Combine's
/// `ImmediateScheduler`. Its clock never moves; delayed actions run at once too, and repeating
/// ones run once.
public struct ImmediateScheduler: Scheduler, Sendable {
  /// The one point in time of an immediate scheduler.
  public struct SchedulerTimeType: Strideable, Sendable {
    /// A distance between times, in whole units.
    public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable, Hashable, Sendable,
      SchedulerTimeIntervalConvertible
    {
      /// The distance.
      public var magnitude: Int

      /// A distance of `value` units.
      public init(_ value: Int) { magnitude = value }
      public init(integerLiteral value: Int) { magnitude = value }
      public init(floatLiteral value: Double) { magnitude = Int(value) }
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        magnitude = value
      }

      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
      public static func + (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude + rhs.magnitude) }
      public static func - (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude - rhs.magnitude) }
      public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(lhs.magnitude * rhs.magnitude) }
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

      public static func seconds(_ s: Int) -> Stride { Stride(s) }
      public static func seconds(_ s: Double) -> Stride { Stride(Int(s)) }
      public static func milliseconds(_ ms: Int) -> Stride { Stride(ms) }
      public static func microseconds(_ us: Int) -> Stride { Stride(us) }
      public static func nanoseconds(_ ns: Int) -> Stride { Stride(ns) }
    }

    public func distance(to other: SchedulerTimeType) -> Stride { 0 }
    public func advanced(by n: Stride) -> SchedulerTimeType { self }
  }

  /// It takes no options.
  public typealias SchedulerOptions = Never

  /// The shared instance.
  public static let shared = ImmediateScheduler()

  public var now: SchedulerTimeType { SchedulerTimeType() }
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  public func schedule(options: Never?, _ action: @escaping () -> Void) { action() }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void
  ) { action() }

  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
    options: Never?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    action()
    return AnyCancellable {}
  }
}
