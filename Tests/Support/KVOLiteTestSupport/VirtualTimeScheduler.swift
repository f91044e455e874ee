// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Test helpers: each type says what it is for; its members are named for what they do.
import KVOLiteCombine

/// A scheduler whose clock moves only when the test says so: time-based operators are tested
/// by advancing it, never by sleeping.
///
/// Times are whole nanoseconds from 0. Actions run in order of their time, then of
/// scheduling; ``advance(by:)`` runs every action due up to the new time, moving the clock to
/// each one's time as it runs (so `now` inside an action is its due time). Use it from one
/// thread.
public final class VirtualTimeScheduler: Scheduler, @unchecked Sendable {
  // @unchecked: used from one thread, as documented.
  public struct SchedulerTimeType: Strideable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int

    public func distance(to other: SchedulerTimeType) -> Stride {
      Stride(other.nanoseconds - nanoseconds)
    }
    public func advanced(by n: Stride) -> SchedulerTimeType {
      SchedulerTimeType(nanoseconds: nanoseconds + n.magnitude)
    }
    public var description: String { "t\(nanoseconds)" }

    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable,
      Sendable
    {
      public var magnitude: Int
      public init(_ magnitude: Int) { self.magnitude = magnitude }
      public init(integerLiteral value: Int) { magnitude = value }
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        magnitude = value
      }
      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude + rhs.magnitude)
      }
      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude - rhs.magnitude)
      }
      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude * rhs.magnitude)
      }
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
      public static func seconds(_ s: Int) -> Stride { Stride(s * 1_000_000_000) }
      public static func seconds(_ s: Double) -> Stride { Stride(Int(s * 1_000_000_000)) }
      public static func milliseconds(_ ms: Int) -> Stride { Stride(ms * 1_000_000) }
      public static func microseconds(_ us: Int) -> Stride { Stride(us * 1_000) }
      public static func nanoseconds(_ ns: Int) -> Stride { Stride(ns) }
    }
  }

  public typealias SchedulerOptions = Never

  /// A scheduler at time 0 with nothing scheduled.
  public init() {}

  private struct Action {
    let time: Int
    let order: Int
    let body: () -> Void
  }

  public private(set) var now = SchedulerTimeType(nanoseconds: 0)
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }
  private var actions: [Action] = []
  private var nextOrder = 0
  /// How many actions have been scheduled in all.
  public private(set) var scheduledCount = 0

  private func enqueue(at time: Int, _ body: @escaping () -> Void) {
    actions.append(Action(time: Swift.max(time, now.nanoseconds), order: nextOrder, body: body))
    nextOrder += 1
    scheduledCount += 1
  }

  public func schedule(options: Never?, _ action: @escaping () -> Void) {
    enqueue(at: now.nanoseconds, action)
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
    _ action: @escaping () -> Void
  ) {
    enqueue(at: date.nanoseconds, action)
  }

  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: Never?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    final class Flag { var cancelled = false }
    let flag = Flag()
    func repeating(at time: Int) {
      enqueue(at: time) { [weak self] in
        guard !flag.cancelled else { return }
        action()
        if !flag.cancelled { self.map { _ in repeating(at: time + interval.magnitude) } }
      }
    }
    repeating(at: date.nanoseconds)
    return AnyCancellable { flag.cancelled = true }
  }

  /// Whether actions are waiting.
  public var hasPendingActions: Bool { !actions.isEmpty }

  /// Runs every action due until `now + stride`, in order, then sets the clock there.
  public func advance(by stride: SchedulerTimeType.Stride) {
    let target = now.nanoseconds + stride.magnitude
    while let index = actions.indices.min(by: {
      (actions[$0].time, actions[$0].order) < (actions[$1].time, actions[$1].order)
    }),
      actions[index].time <= target
    {
      let action = actions.remove(at: index)
      now = SchedulerTimeType(nanoseconds: action.time)
      action.body()
    }
    now = SchedulerTimeType(nanoseconds: target)
  }

  /// Runs the actions due now.
  public func runDue() { advance(by: 0) }
}
