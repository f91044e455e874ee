import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

/// Time-based operators on a virtual-time scheduler: every event is checked at its virtual time.
@Suite("Time: receive(on:), subscribe(on:), delay, debounce, throttle, timeout, measureInterval")
struct TimeOperatorTests {
  typealias Stride = VirtualTimeScheduler.SchedulerTimeType.Stride

  /// Records `event at tN` for every event of a subscriber.
  final class Timeline<Value>: @unchecked Sendable {
    var lines: [String] = []
    var subscription: (any Subscription)?

    func subscriber<Failure: Error>(
      _ scheduler: VirtualTimeScheduler, demand: Subscribers.Demand = .unlimited,
      failure: Failure.Type
    ) -> AnySubscriber<Value, Failure> {
      AnySubscriber(
        receiveSubscription: { [self] in
          subscription = $0
          lines.append("subscription at \(scheduler.now)")
          $0.request(demand)
        },
        receiveValue: { [self] in
          lines.append("\($0) at \(scheduler.now)")
          return .none
        },
        receiveCompletion: { [self] in lines.append("\($0) at \(scheduler.now)") })
    }
  }

  @Test(
    "receive(on:) delivers each event on the scheduler, in order; subscribe(on:) subscribes there")
  func receiveAndSubscribeOn() {
    let scheduler = VirtualTimeScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let timeline = Timeline<Int>()
    subject.receive(on: scheduler).subscribe(timeline.subscriber(scheduler, failure: Never.self))
    subject.send(1)
    subject.send(completion: .finished)
    #expect(timeline.lines == ["subscription at t0"])
    scheduler.advance(by: 5)
    #expect(timeline.lines == ["subscription at t0", "1 at t0", "finished at t0"])
    let later = Timeline<Int>()
    scheduler.advance(by: 10)
    Just(7).subscribe(on: scheduler).subscribe(later.subscriber(scheduler, failure: Never.self))
    #expect(later.lines == [])
    scheduler.runDue()
    #expect(later.lines == ["subscription at t15", "7 at t15", "finished at t15"])
  }

  @Test("delay moves every event by the interval; a cancel drops what is waiting")
  func delay() {
    let scheduler = VirtualTimeScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let timeline = Timeline<Int>()
    subject.delay(for: 10, scheduler: scheduler).subscribe(
      timeline.subscriber(scheduler, failure: Never.self))
    subject.send(1)
    scheduler.advance(by: 3)
    subject.send(2)
    subject.send(completion: .finished)
    scheduler.advance(by: 20)
    #expect(timeline.lines == ["subscription at t0", "1 at t10", "2 at t13", "finished at t13"])
    let other = PassthroughSubject<Int, Never>()
    let dropped = Timeline<Int>()
    other.delay(for: 10, scheduler: scheduler).subscribe(
      dropped.subscriber(scheduler, failure: Never.self))
    other.send(5)
    dropped.subscription?.cancel()
    scheduler.advance(by: 20)
    #expect(dropped.lines == ["subscription at t23"])
  }

  @Test(
    "debounce sends the last value of a burst once the upstream is quiet; completion drops a waiting value"
  )
  func debounce() {
    let scheduler = VirtualTimeScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let timeline = Timeline<Int>()
    subject.debounce(for: 10, scheduler: scheduler).subscribe(
      timeline.subscriber(scheduler, failure: Never.self))
    subject.send(1)
    scheduler.advance(by: 5)
    subject.send(2)
    scheduler.advance(by: 15)
    subject.send(3)
    scheduler.advance(by: 5)
    subject.send(completion: .finished)
    scheduler.advance(by: 20)
    #expect(timeline.lines == ["subscription at t0", "2 at t15", "finished at t25"])
  }

  @Test("throttle: one value per interval, the latest or the first of each")
  func throttle() {
    for latest in [true, false] {
      let scheduler = VirtualTimeScheduler()
      let subject = PassthroughSubject<Int, Never>()
      let timeline = Timeline<Int>()
      subject.throttle(for: 10, scheduler: scheduler, latest: latest)
        .subscribe(timeline.subscriber(scheduler, failure: Never.self))
      subject.send(1)
      scheduler.advance(by: 2)
      subject.send(2)
      scheduler.advance(by: 2)
      subject.send(3)
      scheduler.advance(by: 20)
      subject.send(completion: .finished)
      scheduler.advance(by: 1)
      #expect(
        timeline.lines == [
          "subscription at t0", "1 at t0", "\(latest ? 3 : 2) at t10", "finished at t24",
        ],
        "latest: \(latest)")
    }
  }

  @Test(
    "timeout ends a quiet upstream with the custom error, or finishes; values restart the clock")
  func timeout() {
    let scheduler = VirtualTimeScheduler()
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let timeline = Timeline<Int>()
    upstream.timeout(10, scheduler: scheduler) { TestError("timed out") }
      .subscribe(timeline.subscriber(scheduler, failure: TestError.self))
    scheduler.advance(by: 8)
    upstream.send(1)
    scheduler.advance(by: 8)
    #expect(timeline.lines == ["subscription at t0", "1 at t8"])
    scheduler.advance(by: 5)
    #expect(timeline.lines == ["subscription at t0", "1 at t8", "failure(timed out) at t18"])
    #expect(history.all == [.requested(.unlimited), .cancelled])
    let finishing = Timeline<Int>()
    PassthroughSubject<Int, Never>().timeout(3, scheduler: scheduler)
      .subscribe(finishing.subscriber(scheduler, failure: Never.self))
    scheduler.advance(by: 3)
    #expect(finishing.lines == ["subscription at t21", "finished at t24"])
  }

  @Test("measureInterval publishes the time since the previous value")
  func measureInterval() {
    let scheduler = VirtualTimeScheduler()
    let subject = PassthroughSubject<String, Never>()
    var intervals: [Int] = []
    let cancellable = subject.measureInterval(using: scheduler).sink {
      intervals.append($0.magnitude)
    }
    scheduler.advance(by: 4)
    subject.send("a")
    scheduler.advance(by: 6)
    subject.send("b")
    #expect(intervals == [4, 6])
    _ = cancellable
  }

  @Test(
    "collect by time sends each non-empty group at its tick; by time or count also when full; the rest before finishing"
  )
  func collectByTime() {
    let scheduler = VirtualTimeScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let timeline = Timeline<[Int]>()
    subject.collect(.byTime(scheduler, 10)).subscribe(
      timeline.subscriber(scheduler, failure: Never.self))
    subject.send(1)
    subject.send(2)
    scheduler.advance(by: 25)
    subject.send(3)
    subject.send(completion: .finished)
    scheduler.advance(by: 10)
    #expect(
      timeline.lines == ["subscription at t0", "[1, 2] at t10", "[3] at t25", "finished at t25"])
    let counted = Timeline<[Int]>()
    let other = PassthroughSubject<Int, Never>()
    other.collect(.byTimeOrCount(scheduler, 10, 2)).subscribe(
      counted.subscriber(scheduler, failure: Never.self))
    other.send(1)
    other.send(2)
    scheduler.advance(by: 3)
    other.send(3)
    scheduler.advance(by: 10)
    #expect(counted.lines == ["subscription at t35", "[1, 2] at t35", "[3] at t45"])
  }

  @Test(
    "completion racing a pending timer: timeout does not fire after it; throttle sends the waiting value first"
  )
  func completionRacingTimers() {
    let scheduler = VirtualTimeScheduler()
    let upstream = PassthroughSubject<Int, TestError>()
    let timeline = Timeline<Int>()
    upstream.timeout(10, scheduler: scheduler) { TestError("late") }
      .subscribe(timeline.subscriber(scheduler, failure: TestError.self))
    scheduler.advance(by: 9)
    upstream.send(completion: .finished)
    scheduler.advance(by: 30)
    #expect(timeline.lines == ["subscription at t0", "finished at t9"])
    let throttled = Timeline<Int>()
    let other = PassthroughSubject<Int, Never>()
    other.throttle(for: 10, scheduler: scheduler, latest: true).subscribe(
      throttled.subscriber(scheduler, failure: Never.self))
    other.send(1)
    scheduler.runDue()
    other.send(2)
    other.send(completion: .finished)
    scheduler.advance(by: 20)
    #expect(throttled.lines == ["subscription at t39", "1 at t39", "2 at t49", "finished at t49"])
  }

  @Test(
    "the standard schedulers: immediate runs at once; a dispatch queue's strides convert exactly")
  func standardSchedulers() {
    var ran = 0
    ImmediateScheduler.shared.schedule { ran += 1 }
    ImmediateScheduler.shared.schedule(after: ImmediateScheduler.shared.now.advanced(by: 5)) {
      ran += 1
    }
    #expect(ran == 2)
    typealias DispatchStride = DispatchQueue.SchedulerTimeType.Stride
    #expect(DispatchStride.seconds(2).magnitude == 2_000_000_000)
    #expect(
      DispatchStride.milliseconds(3).magnitude == 3_000_000
        && DispatchStride(.microseconds(4)).magnitude == 4_000)
    #expect((1.5 as DispatchStride).magnitude == 1_500_000_000)
    let start = DispatchQueue.SchedulerTimeType(.init(uptimeNanoseconds: 1_000))
    #expect(start.advanced(by: .nanoseconds(500)).distance(to: start) == .nanoseconds(-500))
    #expect(RunLoop.SchedulerTimeType.Stride.milliseconds(250).timeInterval == 0.25)
    var values: [Int] = []
    let cancellable = [1, 2].publisher.receive(on: ImmediateScheduler.shared).sink {
      values.append($0)
    }
    #expect(values == [1, 2])
    _ = cancellable
  }
}
