import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// A user's scheduler that runs the actions it was given in another order than it got them (the
/// last first, when the test says): the operators that hop schedulers still deliver each
/// subscription's events in order, each once its own action has run, and the scheduler sees
/// one call per event, as Combine makes them.
@Suite("Time: in order on a user's scheduler that reorders its actions")
struct UserSchedulerOrderTests {
  /// A scheduler that keeps every action until ``runLastFirst(observing:)``, and counts the
  /// calls. Its repeating timers never fire.
  final class ReorderingScheduler: Scheduler, @unchecked Sendable {
    // @unchecked: used from one thread.
    typealias SchedulerTimeType = ImmediateScheduler.SchedulerTimeType
    typealias SchedulerOptions = Never

    private var actions: [() -> Void] = []
    private(set) var calls = 0

    var now: SchedulerTimeType { ImmediateScheduler.shared.now }
    var minimumTolerance: SchedulerTimeType.Stride { 0 }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
      calls += 1
      actions.append(action)
    }

    func schedule(
      after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
      _ action: @escaping () -> Void
    ) {
      calls += 1
      actions.append(action)
    }

    func schedule(
      after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
      tolerance: SchedulerTimeType.Stride, options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
      calls += 1
      return Subscriptions.empty
    }

    /// Runs the actions kept, the last first; `observe` is called after each one.
    func runLastFirst(observing observe: () -> Void = {}) {
      let kept = actions
      actions = []
      for action in kept.reversed() {
        action()
        observe()
      }
    }
  }

  @Test(
    "receive(on:), delay and timeout: nothing goes out until the first action ran, then all in order",
    arguments: ["receive(on:)", "delay", "timeout"])
  func inOrder(_ name: String) {
    let scheduler = ReorderingScheduler()
    let subscriber = TrackingSubscriber<Int, TestError>()
    let values = [1, 2, 3].publisher.setFailureType(to: TestError.self)
    switch name {
    case "receive(on:)": values.receive(on: scheduler).subscribe(subscriber)
    case "delay": values.delay(for: 5, scheduler: scheduler).subscribe(subscriber)
    default: values.timeout(60, scheduler: scheduler).subscribe(subscriber)
    }
    // One call per value and one for the completion (and timeout's clock, armed at the
    // subscription, at the first request and at each value), as Combine makes them.
    #expect(scheduler.calls == (name == "timeout" ? 9 : 4))
    var seen: [[Event<Int>]] = []
    scheduler.runLastFirst { seen.append(subscriber.events) }
    let done: [Event<Int>] = [.subscription, .value(1), .value(2), .value(3), .finished]
    #expect(seen == Array(repeating: [.subscription], count: 3) + [done])
  }

  @Test("subscribe(on:): the requests reach upstream in the order they were made")
  func subscribeOnInOrder() {
    let scheduler = ReorderingScheduler()
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    upstream.subscribe(on: scheduler).subscribe(
      TrackingSubscriber<Int, TestError>(onSubscribe: { subscription in
        subscription.request(.max(1))
        subscription.request(.max(2))
        subscription.cancel()
      }))
    scheduler.runLastFirst()  // the subscription
    scheduler.runLastFirst()  // the requests and the cancel, the last first
    #expect(history.all == [.requested(.max(1)), .requested(.max(2)), .cancelled])
  }
}
