// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Darwin)
  import Dispatch
  import Foundation
  import KVOLiteCombine

  extension OperationQueue: Scheduler {
    /// Options for scheduling on an operation queue (none yet, as in Combine).
    public struct SchedulerOptions: Sendable {}

    /// Now, by the wall clock.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Adds `action` as a `BlockOperation`, as Combine does.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
      // The queue runs the action on its own thread: that is what it is scheduled for.
      let work = UncheckedSendable(action)
      addOperation(BlockOperation { work.value() })
    }

    /// Adds, at once, an operation that is not ready until `date` (so the queue runs `action`
    /// then), as Combine does.
    public func schedule(
      after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?,
      _ action: @escaping () -> Void
    ) {
      addOperation(DelayedOperation.once(at: date.date, action))
    }

    /// Adds an operation that is not ready until `date`; each time it runs `action`, it adds
    /// the next one, ready `interval` later, until the returned cancellable is cancelled (as
    /// Combine does: one operation per tick).
    public func schedule(
      after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
      let schedule = DelayedOperation.Schedule()
      addOperation(
        DelayedOperation.repeating(
          at: date.date, every: interval.timeInterval, on: self, schedule: schedule, action))
      return AnyCancellable(schedule)
    }
  }
#endif
