import KVOLiteCombine
import KVOLiteLocking

/// A scheduler whose actions wait in one queue until a test's threads run them: the threads of
/// a concurrent queue, each taking the oldest action and running it, so that actions taken in
/// order may run at once, or overtake one another.
///
/// Every action waits, whenever it is due (`schedule(after:)` ignores the date; the clock stays
/// at 0, and a repeating action runs once). The queue is behind a ``Lock``, so taking an action
/// is a schedule point of ``ThreadScheduler``'s: which thread takes which action is one of the
/// choices it explores. Thread-safe.
public final class QueueScheduler: Scheduler, @unchecked Sendable {
  // @unchecked: the queue is behind `lock`.
  /// ``VirtualTimeScheduler``'s time, which stays at 0 here.
  public typealias SchedulerTimeType = VirtualTimeScheduler.SchedulerTimeType
  /// None.
  public typealias SchedulerOptions = Never

  private let lock = Lock()
  /// The actions, each let go of once taken.
  private var queue: [(() -> Void)?] = []
  private var taken = 0

  /// A scheduler with nothing queued.
  public init() {}

  /// Always 0.
  public var now: SchedulerTimeType { SchedulerTimeType(nanoseconds: 0) }

  /// 0.
  public var minimumTolerance: SchedulerTimeType.Stride { 0 }

  /// How many actions wait in the queue.
  public var count: Int { lock.withLock { queue.count - taken } }

  /// Takes the oldest action waiting and runs it (after unlocking); returns whether there was
  /// one.
  @discardableResult
  public func runNext() -> Bool {
    let action = lock.withLock { () -> (() -> Void)? in
      guard taken < queue.count else { return nil }
      defer { taken += 1 }
      return queue[taken].take()
    }
    action?()
    return action != nil
  }

  /// Queues `action`.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    lock.withLock { queue.append(action) }
  }

  /// Queues `action` (now: the date is ignored).
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    schedule(options: options, action)
  }

  /// Queues `action`, once (the date and interval are ignored); cancelling does nothing.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    schedule(options: options, action)
    return AnyCancellable {}
  }
}
