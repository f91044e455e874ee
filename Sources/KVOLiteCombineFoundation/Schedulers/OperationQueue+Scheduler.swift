// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Combine)
  import Dispatch
  import Foundation
  import KVOLiteCombine

  extension OperationQueue: Scheduler {
    /// A point in time for an operation queue: a `Date` (Combine's
    /// `OperationQueue.SchedulerTimeType`).
    public typealias SchedulerTimeType = DateSchedulerTime

    /// Options for scheduling on an operation queue (none yet, as in Combine).
    public struct SchedulerOptions: Sendable {}

    /// Now, by the wall clock.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }
    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Adds `action` as an operation.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
      let work = UncheckedSendable(action)
      addOperation { work.value() }
    }

    /// Adds `action` as an operation at `date` (a dispatch timer waits for it).
    public func schedule(
      after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?,
      _ action: @escaping () -> Void
    ) {
      let work = UncheckedSendable(action)
      let queue = UncheckedSendable(self)
      let delay = Swift.max(0, date.date.timeIntervalSinceNow)
      DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
        queue.value.addOperation { work.value() }
      }
    }

    /// Adds `action` as an operation at `date` and every `interval` after, until the result is
    /// cancelled.
    public func schedule(
      after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride,
      options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
      let work = UncheckedSendable(action)
      let queue = UncheckedSendable(self)
      let timer = DispatchSource.makeTimerSource(queue: .global())
      timer.setEventHandler { queue.value.addOperation { work.value() } }
      let delay = Swift.max(0, date.date.timeIntervalSinceNow)
      timer.schedule(
        deadline: .now() + delay,
        repeating: .nanoseconds(Int(interval.timeInterval * 1_000_000_000)),
        leeway: .nanoseconds(Int(tolerance.timeInterval * 1_000_000_000)))
      timer.resume()
      let source = UncheckedSendable(timer)
      return AnyCancellable { source.value.cancel() }
    }
  }
#endif
