// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Test helpers: each type says what it is for; its members are named for what they do.
import KVOLiteCombine

/// A scheduler whose clock moves only when the test says so: time-based operators are tested
/// by advancing it, never by sleeping.
///
/// Times are whole nanoseconds from 0. Actions run in order of their time, then of
/// scheduling; ``advance(by:)`` runs every action due up to the new time, moving the clock to
/// each one's time as it runs (so `now` inside an action is its due time). Every call an
/// operator makes on it (reading `now` or `minimumTolerance`, scheduling) is recorded in
/// ``history``, so that a test can compare the calls with Combine's. Use it from one thread.
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

  /// Options an operator may pass through to the scheduler.
  public enum SchedulerOptions: Equatable, Sendable {
    case nontrivial
  }

  /// One call made on the scheduler; times and strides in nanoseconds.
  public enum Call: Equatable, Sendable, CustomStringConvertible {
    case now
    case minimumTolerance
    case schedule(options: SchedulerOptions?)
    case scheduleAfter(Int, tolerance: Int, options: SchedulerOptions?)
    case scheduleAfterRepeating(Int, interval: Int, tolerance: Int, options: SchedulerOptions?)

    public var description: String {
      switch self {
      case .now: "now"
      case .minimumTolerance: "minimumTolerance"
      case .schedule(let options): "schedule(\(options.map { "\($0)" } ?? "nil"))"
      case .scheduleAfter(let time, let tolerance, let options):
        "scheduleAfter(t\(time), tolerance: \(tolerance), \(options.map { "\($0)" } ?? "nil"))"
      case .scheduleAfterRepeating(let time, let interval, let tolerance, let options):
        "scheduleAfter(t\(time), interval: \(interval), tolerance: \(tolerance), "
          + "\(options.map { "\($0)" } ?? "nil"))"
      }
    }
  }

  /// A scheduler at time 0 with nothing scheduled.
  public init() {}

  /// Every call made on the scheduler, in order.
  public private(set) var history: [Call] = []
  /// How many of the cancellables that repeating schedules returned have been cancelled.
  public private(set) var cancelledRepeats = 0

  private struct Action {
    let time: Int
    let order: Int
    let body: () -> Void
  }

  private var clock = SchedulerTimeType(nanoseconds: 0)
  public var now: SchedulerTimeType {
    history.append(.now)
    return clock
  }
  public var minimumTolerance: SchedulerTimeType.Stride {
    history.append(.minimumTolerance)
    return 7
  }
  private var actions: [Action] = []
  private var nextOrder = 0
  /// How many actions have been scheduled in all.
  public private(set) var scheduledCount = 0

  private func enqueue(at time: Int, _ body: @escaping () -> Void) {
    actions.append(
      Action(time: Swift.max(time, clock.nanoseconds), order: nextOrder, body: body))
    nextOrder += 1
    scheduledCount += 1
  }

  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    history.append(.schedule(options: options))
    enqueue(at: clock.nanoseconds, action)
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    history.append(
      .scheduleAfter(date.nanoseconds, tolerance: tolerance.magnitude, options: options))
    enqueue(at: date.nanoseconds, action)
  }

  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    history.append(
      .scheduleAfterRepeating(
        date.nanoseconds, interval: interval.magnitude, tolerance: tolerance.magnitude,
        options: options))
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
    return AnyCancellable { [weak self] in
      guard !flag.cancelled else { return }
      flag.cancelled = true
      self?.cancelledRepeats += 1
    }
  }

  /// Forgets the calls recorded so far.
  public func clearHistory() { history = [] }

  /// Whether actions are waiting.
  public var hasPendingActions: Bool { !actions.isEmpty }

  /// Runs every action due until `now + stride`, in order, then sets the clock there.
  public func advance(by stride: SchedulerTimeType.Stride) {
    let target = clock.nanoseconds + stride.magnitude
    while let index = actions.indices.min(by: {
      (actions[$0].time, actions[$0].order) < (actions[$1].time, actions[$1].order)
    }),
      actions[index].time <= target
    {
      let action = actions.remove(at: index)
      clock = SchedulerTimeType(nanoseconds: action.time)
      action.body()
    }
    clock = SchedulerTimeType(nanoseconds: target)
  }

  /// Runs the actions due now.
  public func runDue() { advance(by: 0) }
}
