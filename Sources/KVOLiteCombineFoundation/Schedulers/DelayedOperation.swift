// Foundation's publishers and schedulers, where Apple's Combine does not provide them.
#if !canImport(Darwin)
  import Dispatch
  import Foundation
  import KVOLiteCombine
  import KVOLiteLocking

  /// The operation that `OperationQueue`'s scheduler adds for a delayed action, as Combine's
  /// does: added to the queue at once, and not ready until its time has come (so the queue runs
  /// it then). It runs its action once; for a repeating schedule, running adds the next
  /// operation (one per tick) while the schedule is not cancelled. Cancellable: a cancel drops
  /// the action. Thread-safe: the state is behind `lock`.
  final class DelayedOperation: Operation, Cancellable, @unchecked Sendable {
    // @unchecked: the mutable state is behind `lock`.

    /// What a repeating schedule's operations share: the current one, for its cancellable.
    final class Schedule: Cancellable, @unchecked Sendable {
      // @unchecked: `current` is behind `lock`.
      let lock = Lock()
      weak var current: DelayedOperation?
      var cancelled = false

      /// Stops the schedule: the current operation is cancelled and no other is added.
      func cancel() {
        let current = lock.withLock { () -> DelayedOperation? in
          cancelled = true
          return self.current
        }
        current?.cancel()
      }
    }

    private let lock = Lock()
    private var action: (() -> Void)?
    private var ready = false
    /// The queue and the schedule of a repeating operation, and its interval in seconds.
    private let repeating: (queue: OperationQueue, schedule: Schedule, interval: TimeInterval)?

    private init(
      action: @escaping () -> Void,
      repeating: (queue: OperationQueue, schedule: Schedule, interval: TimeInterval)?
    ) {
      self.action = action
      self.repeating = repeating
      super.init()
    }

    /// An operation that runs `action` once, at `date`.
    static func once(at date: Date, _ action: @escaping () -> Void) -> DelayedOperation {
      let operation = DelayedOperation(action: action, repeating: nil)
      operation.becomeReady(after: date.timeIntervalSinceNow)
      return operation
    }

    /// The first operation of a schedule that runs `action` at `date`, then every `interval`
    /// seconds, on `queue`.
    static func repeating(
      at date: Date, every interval: TimeInterval, on queue: OperationQueue,
      schedule: Schedule, _ action: @escaping () -> Void
    ) -> DelayedOperation {
      let operation = DelayedOperation(
        action: action, repeating: (queue, schedule, interval))
      schedule.lock.withLock { schedule.current = operation }
      operation.becomeReady(after: date.timeIntervalSinceNow)
      return operation
    }

    override var isReady: Bool { lock.withLock { ready } && super.isReady }

    private func becomeReady(after delay: TimeInterval) {
      let operation = UncheckedSendable(Weak(self))
      DispatchQueue.global().asyncAfter(deadline: .now() + Swift.max(0, delay)) {
        operation.value.object?.markReady()
      }
    }

    private func markReady() {
      willChangeValue(for: \.isReady)
      lock.withLock { ready = true }
      didChangeValue(for: \.isReady)
    }

    override func main() {
      guard let action = lock.withLock({ self.action.take() }) else { return }
      action()
      guard let (queue, schedule, interval) = repeating else { return }
      let next = DelayedOperation(action: action, repeating: repeating)
      let added = schedule.lock.withLock { () -> Bool in
        guard !schedule.cancelled else { return false }
        schedule.current = next
        return true
      }
      guard added else { return }
      queue.addOperation(next)
      next.becomeReady(after: interval)
    }

    override func cancel() {
      let action = lock.withLock { self.action.take() }
      withExtendedLifetime(action) {}
      super.cancel()
    }

    /// A weak reference, to hand to the timer that makes an operation ready.
    private struct Weak {
      weak var object: DelayedOperation?
      init(_ object: DelayedOperation) { self.object = object }
    }
  }
#endif
