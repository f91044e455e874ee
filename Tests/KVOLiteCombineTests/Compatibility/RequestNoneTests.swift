import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `request(.none)` asks for nothing: in Combine it is a no-op (or is passed upstream as it is)
/// in the operators below, where it must not trap. (Where Combine traps on it, KVOLite does
/// too: see each operator's tests.)
@Suite("Combine compatibility: request(.none) where Combine accepts it")
struct RequestNoneTests {
  /// What upstream's subscription and the subscriber saw when the subscriber requested
  /// `.max(2)`, `.none`, then `.max(1)` from `make(upstream)` (running what `scheduler` has due
  /// after each step).
  static func requests<P: Publisher>(
    scheduler: VirtualTimeScheduler = VirtualTimeScheduler(),
    _ make: (CustomPublisher<Int, TestError>) -> P
  ) -> (upstream: [Event<Int>], subscriber: [Event<P.Output>])
  where P.Output: Equatable & Sendable {
    let upstreamHistory = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: upstreamHistory)
    let subscriber = TrackingSubscriber<P.Output, P.Failure>(onSubscribe: { _ in })
    make(upstream).subscribe(subscriber)
    scheduler.runDue()
    for demand in [Subscribers.Demand.max(2), .none, .max(1)] {
      subscriber.subscription?.request(demand)
      scheduler.runDue()
    }
    return (upstreamHistory.all, subscriber.events)
  }

  @Test("operators that pass requests upstream pass .none too, as Combine's do")
  func forwarded() {
    let scheduler = VirtualTimeScheduler()
    let forwarded: [Event<Int>] = [.requested(.max(2)), .requested(.none), .requested(.max(1))]
    #expect(Self.requests { $0.append(9) }.upstream == forwarded)
    #expect(
      Self.requests { $0.drop(untilOutputFrom: Empty<Int, TestError>(completeImmediately: false)) }
        .upstream == forwarded)
    #expect(Self.requests { $0.delay(for: 1, scheduler: scheduler) }.upstream == forwarded)
    #expect(Self.requests { $0.receive(on: scheduler) }.upstream == forwarded)
    #expect(
      Self.requests(scheduler: scheduler) { $0.subscribe(on: scheduler) }.upstream == forwarded)
    #expect(Self.requests { $0.timeout(100, scheduler: scheduler) }.upstream == forwarded)
    let measured = Self.requests { $0.measureInterval(using: scheduler) }
    #expect(measured.upstream == forwarded && measured.subscriber == [.subscription])
  }

  @Test("throttle keeps asking upstream for everything; .none adds nothing to its count")
  func throttle() {
    let scheduler = VirtualTimeScheduler()
    let run = Self.requests { $0.throttle(for: 10, scheduler: scheduler, latest: true) }
    #expect(run.upstream == [.requested(.unlimited)])
    #expect(run.subscriber == [.subscription])
  }

  @Test("Publishers.Sequence and Record: .none delivers nothing, also from inside receive")
  func sources() {
    let sequence = TrackingSubscriber<Int, Never>(onSubscribe: {
      $0.request(.none)
      $0.request(.max(2))
    })
    [1, 2, 3].publisher.subscribe(sequence)
    sequence.subscription?.request(.none)
    #expect(sequence.events == [.subscription, .value(1), .value(2)])
    sequence.subscription?.request(.max(1))
    #expect(sequence.events == [.subscription, .value(1), .value(2), .value(3), .finished])

    let record = Record<Int, TestError>(output: [1, 2], completion: .failure(TestError()))
    var subscription: (any Subscription)?
    let recorded = TrackingSubscriber<Int, TestError>(
      onSubscribe: {
        subscription = $0
        $0.request(.none)
        $0.request(.max(1))
      },
      onValue: { _ in
        subscription?.request(.none)
        subscription?.request(.max(1))
        return .none
      })
    record.subscribe(recorded)
    #expect(recorded.events == [.subscription, .value(1), .value(2), .failed(TestError())])
  }
}
