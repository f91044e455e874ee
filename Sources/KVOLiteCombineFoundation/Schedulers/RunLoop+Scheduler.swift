// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Darwin)
  import Foundation
  import KVOLiteCombine

  extension RunLoop: Scheduler {
    /// Options for scheduling on a run loop (none yet, as in Combine).
    public struct SchedulerOptions: Sendable {}

    /// Now, by the wall clock.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Runs `action` on this run loop, the next time it runs.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
      let work = UncheckedSendable(action)
      perform { work.value() }
    }

    /// Runs `action` on this run loop at `date`, in the default mode.
    public func schedule(
      after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?,
      _ action: @escaping () -> Void
    ) {
      let work = UncheckedSendable(action)
      let timer = Timer(fire: date.date, interval: 0, repeats: false) { _ in work.value() }
      timer.tolerance = tolerance.timeInterval
      add(timer, forMode: .default)
    }

    /// Runs `action` on this run loop at `date` and every `interval` after, until the result is
    /// cancelled (which invalidates the timer).
    public func schedule(
      after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
      let work = UncheckedSendable(action)
      let timer = Timer(fire: date.date, interval: interval.timeInterval, repeats: true) { _ in
        work.value()
      }
      timer.tolerance = tolerance.timeInterval
      add(timer, forMode: .default)
      let handle = UncheckedSendable(timer)
      return AnyCancellable { handle.value.invalidate() }
    }
  }
#endif
