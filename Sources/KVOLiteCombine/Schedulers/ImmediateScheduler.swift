/// A scheduler that runs every action at once, on the calling thread: Combine's
/// `ImmediateScheduler`. Its clock never moves; delayed actions run at once too, and repeating
/// ones run once.
public struct ImmediateScheduler: Scheduler, Sendable {
  /// The one point in time of an immediate scheduler.
  public struct SchedulerTimeType: Strideable, Sendable {
    /// A distance between times, in whole units.
    public struct Stride: ExpressibleByFloatLiteral, Comparable, SignedNumeric, Codable, Hashable,
      Sendable,
      SchedulerTimeIntervalConvertible
    {
      /// The distance.
      public var magnitude: Int

      /// A distance of `value` units.
      public init(_ value: Int) { magnitude = value }
      /// An interval of `value` units.
      public init(integerLiteral value: Int) { magnitude = value }
      /// An interval of `value` units.
      public init(floatLiteral value: Double) { magnitude = Int(value) }
      /// An interval equal to `source`, or `nil` if it cannot be represented.
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        magnitude = value
      }

      /// Whether the left-hand side is less than the right-hand side.
      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
      /// The sum of the two.
      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude + rhs.magnitude)
      }
      /// The difference of the two.
      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude - rhs.magnitude)
      }
      /// The product of the two.
      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude * rhs.magnitude)
      }
      /// Adds the right-hand side to the left-hand side.
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
      /// Subtracts the right-hand side from the left-hand side.
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
      /// Multiplies the left-hand side by the right-hand side.
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }

      /// Zero, whatever the number of seconds: time does not pass on this scheduler (as in
      /// Combine).
      public static func seconds(_ s: Int) -> Stride { 0 }
      /// Zero, whatever the number of seconds.
      public static func seconds(_ s: Double) -> Stride { 0 }
      /// Zero, whatever the number of milliseconds.
      public static func milliseconds(_ ms: Int) -> Stride { 0 }
      /// Zero, whatever the number of microseconds.
      public static func microseconds(_ us: Int) -> Stride { 0 }
      /// Zero, whatever the number of nanoseconds.
      public static func nanoseconds(_ ns: Int) -> Stride { 0 }
    }

    /// The interval from this time to `other`.
    public func distance(to other: SchedulerTimeType) -> Stride { 0 }
    /// This time moved by `n`.
    public func advanced(by n: Stride) -> SchedulerTimeType { self }
  }

  /// It takes no options.
  public typealias SchedulerOptions = Never

  /// The shared instance.
  public static let shared = ImmediateScheduler()

  /// The only time there is: every ``SchedulerTimeType`` is equal.
  public var now: SchedulerTimeType { SchedulerTimeType() }
  /// Zero: nothing is ever late.
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  /// Runs `action` at once, on the calling thread.
  public func schedule(options: Never?, _ action: @escaping () -> Void) { action() }

  /// Runs `action` at once: there is no later on this scheduler.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) { action() }

  /// Runs `action` once, at once, and returns ``Subscriptions/empty``, which does nothing when
  /// cancelled: Combine's immediate scheduler does not repeat.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: Never?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    action()
    return Subscriptions.empty
  }
}
