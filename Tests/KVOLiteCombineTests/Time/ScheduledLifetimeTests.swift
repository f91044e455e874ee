import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// What the time operators' scheduled actions keep, and the handshake around cancel, as in
/// Combine (OpenCombine's compatibility tests record it).
@Suite("Time: scheduled actions, cancel and the handshake")
struct ScheduledLifetimeTests {
  @Test(
    "receive(on:) and delay deliver a completion already scheduled after a cancel, not a value",
    arguments: ["receive(on:)", "delay"])
  func scheduledCompletionOutlivesCancel(_ name: String) {
    let scheduler = VirtualTimeScheduler()
    func attach(_ upstream: CustomPublisher<Int, TestError>) -> TrackingSubscriber<Int, TestError> {
      let subscriber = TrackingSubscriber<Int, TestError>()
      if name == "delay" {
        upstream.delay(for: 5, scheduler: scheduler).subscribe(subscriber)
      } else {
        upstream.receive(on: scheduler).subscribe(subscriber)
      }
      return subscriber
    }
    let completing = CustomPublisher<Int, TestError>(history: Log())
    let completed = attach(completing)
    completing.send(completion: .finished)
    completed.subscription?.cancel()
    #expect(completed.events == [.subscription])
    scheduler.advance(by: 10)
    #expect(completed.events == [.subscription, .finished])

    let valueHistory = Log<Event<Int>>()
    let sending = CustomPublisher<Int, TestError>(history: valueHistory)
    let cancelled = attach(sending)
    #expect(sending.send(1) == .none)
    cancelled.subscription?.cancel()
    scheduler.advance(by: 10)
    #expect(cancelled.events == [.subscription])
    #expect(valueHistory.all == [.requested(.unlimited), .cancelled])
  }

  @Test("throttle's scheduled actions hold it weakly: a cancel stops a scheduled completion")
  func throttleWeakActions() {
    let scheduler = VirtualTimeScheduler()
    let released = Counter()
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    do {
      let subscriber = TrackingSubscriber<Int, TestError>(onDeinit: { released.increment() })
      upstream.throttle(for: .seconds(60), scheduler: scheduler, latest: true)
        .subscribe(subscriber)
      upstream.send(completion: .finished)
      subscriber.subscription?.cancel()
      #expect(subscriber.events == [.subscription])
    }
    upstream.release()
    #expect(released.count == 1)
    scheduler.advance(by: .seconds(1))
  }

  @Test(
    "a cancel before upstream's subscription leaves it alone, or cancels it, as Combine does",
    arguments: [
      ("receive(on:)", false), ("delay", false), ("subscribe(on:)", false),
      ("measureInterval", false), ("timeout", false), ("debounce", false), ("throttle", true),
    ])
  func cancelBeforeSubscription(_ name: String, cancelsLater: Bool) {
    let scheduler = VirtualTimeScheduler()
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history, subscribesAtOnce: false)
    let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { _ in })
    switch name {
    case "receive(on:)": upstream.receive(on: scheduler).subscribe(subscriber)
    case "delay": upstream.delay(for: 1, scheduler: scheduler).subscribe(subscriber)
    case "subscribe(on:)": upstream.subscribe(on: scheduler).subscribe(subscriber)
    case "measureInterval":
      upstream.measureInterval(using: scheduler).map { _ in 0 }.subscribe(subscriber)
    case "timeout": upstream.timeout(10, scheduler: scheduler).subscribe(subscriber)
    case "debounce": upstream.debounce(for: 1, scheduler: scheduler).subscribe(subscriber)
    default:
      upstream.throttle(for: 1, scheduler: scheduler, latest: false).subscribe(subscriber)
    }
    scheduler.runDue()
    upstream.subscriberAsSubscription?.cancel()
    upstream.sendSubscription()
    scheduler.runDue()
    let expected: [Event<Int>] =
      switch (cancelsLater, name) {
      case (true, _): [.cancelled]
      case (false, "debounce"): [.requested(.unlimited)]
      default: []
      }
    #expect(history.all == expected)
  }
}
