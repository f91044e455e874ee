import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// The calls that the time operators make on their scheduler, compared with the ones Combine
/// makes (OpenCombine's compatibility tests record them): when they read the clock, and how
/// they schedule and cancel.
@Suite("Time: the calls operators make on a scheduler")
struct SchedulerCallTests {
  typealias Call = VirtualTimeScheduler.Call

  /// A repeating schedule `interval` after `time`, with the test scheduler's tolerance.
  static func repeating(at time: Int, every interval: Int) -> Call {
    .scheduleAfterRepeating(time, interval: interval, tolerance: 7, options: .nontrivial)
  }

  @Test("debounce arms a repeating timer per value and cancels the earlier ones")
  func debounce() {
    let scheduler = VirtualTimeScheduler()
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    let subscriber = TrackingSubscriber<Int, TestError>(
      onSubscribe: { $0.request(.max(2)) }, onValue: { _ in .max(1) })
    upstream.debounce(for: 13, scheduler: scheduler, options: .nontrivial).subscribe(subscriber)
    #expect(scheduler.history == [])
    #expect(upstream.send(1) == .none)
    scheduler.advance(by: 4)
    #expect(upstream.send(2) == .none)
    scheduler.advance(by: 5)
    #expect(upstream.send(3) == .none)
    scheduler.advance(by: 200)
    #expect(subscriber.events == [.subscription, .value(3)])
    upstream.send(completion: .finished)
    upstream.send(completion: .failure(TestError()))
    #expect(upstream.send(-1) == .none)
    scheduler.advance(by: 100)
    #expect(subscriber.events == [.subscription, .value(3), .finished])
    #expect(
      scheduler.history == [
        .now, .minimumTolerance, Self.repeating(at: 13, every: 13),
        .now, .minimumTolerance, Self.repeating(at: 17, every: 13),
        .now, .minimumTolerance, Self.repeating(at: 22, every: 13),
        .schedule(options: nil),
      ])
    #expect(scheduler.cancelledRepeats == 3)
  }

  @Test("timeout arms a repeating clock at subscription, first request and each value")
  func timeout() {
    let scheduler = VirtualTimeScheduler()
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(
      onSubscribe: { $0.request(.max(2)) }, onValue: { _ in .max(1) })
    upstream.timeout(13, scheduler: scheduler, options: .nontrivial) { TestError("timeout") }
      .subscribe(subscriber)
    scheduler.advance(by: 10)
    #expect(upstream.send(1) == .none)
    scheduler.advance(by: 1)
    #expect(upstream.send(2) == .none)
    scheduler.advance(by: 200)
    #expect(
      subscriber.events == [.subscription, .value(1), .value(2), .failed(TestError("timeout"))])
    #expect(
      history.all == [.requested(.max(2)), .requested(.max(1)), .requested(.max(1)), .cancelled])
    #expect(
      scheduler.history == [
        .now, .minimumTolerance, Self.repeating(at: 13, every: 13),
        .now, .minimumTolerance, Self.repeating(at: 13, every: 13),
        .now, .minimumTolerance, Self.repeating(at: 23, every: 13),
        .schedule(options: .nontrivial),
        .now, .minimumTolerance, Self.repeating(at: 24, every: 13),
        .schedule(options: .nontrivial),
      ])
    // Each clock armed again cancels the one before; the timeout cancels the last.
    #expect(scheduler.cancelledRepeats == 4)
  }

  @Test("timeout on a scheduler that runs its timer at once traps, as in Combine")
  func timeoutOnImmediateScheduler() async {
    await #expect(processExitsWith: .failure) {
      Just(1).timeout(10, scheduler: ImmediateScheduler.shared)
        .subscribe(TrackingSubscriber<Int, Never>())
    }
  }

  @Test("throttle reads the clock when made, at subscription, at each value and at emission")
  func throttle() {
    let scheduler = VirtualTimeScheduler()
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    let subscriber = TrackingSubscriber<Int, TestError>(
      onSubscribe: { $0.request(.max(100)) }, onValue: { _ in .max(12) })
    upstream.throttle(for: .seconds(1337), scheduler: scheduler, latest: true)
      .subscribe(subscriber)
    #expect(scheduler.history == [.now, .now])
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(2) == .none)
    #expect(upstream.send(3) == .none)
    #expect(scheduler.history == [.now, .now, .now, .schedule(options: nil), .now, .now])
    scheduler.runDue()
    #expect(subscriber.events == [.subscription, .value(3)])
    #expect(upstream.send(4) == .none)
    upstream.send(completion: .failure(TestError()))
    upstream.send(completion: .finished)
    #expect(upstream.send(5) == .none)
    scheduler.advance(by: .seconds(1337))
    #expect(
      subscriber.events == [.subscription, .value(3), .value(4), .failed(TestError())])
    #expect(
      scheduler.history == [
        .now, .now, .now, .schedule(options: nil), .now, .now, .now,
        .now, .minimumTolerance, .scheduleAfter(1_337_000_000_000, tolerance: 7, options: nil),
        .now,
      ])
  }

  @Test("delay reads the tolerance when made, then the clock per event")
  func delay() {
    let scheduler = VirtualTimeScheduler()
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    let delayed = upstream.delay(for: 5, scheduler: scheduler)
    #expect(scheduler.history == [.minimumTolerance])
    let subscriber = TrackingSubscriber<Int, TestError>()
    delayed.subscribe(subscriber)
    #expect(upstream.send(1) == .none)
    #expect(
      scheduler.history == [.minimumTolerance, .now, .scheduleAfter(5, tolerance: 7, options: nil)]
    )
  }
}
