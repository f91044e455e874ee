import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// What a misbehaving upstream sends after an operator has ended: forwarded where Combine
/// forwards it (to a subscriber that is still alive: KVOLite holds it only weakly then),
/// ignored where Combine ignores it.
@Suite("Combine compatibility: events after the end")
struct AfterTheEndTests {
  /// `make(upstream)` subscribed by a subscriber that asks for nothing at first and answers
  /// each value with `.none`.
  static func attach<P: Publisher>(
    _ make: (CustomPublisher<Int, TestError>) -> P
  ) -> (CustomPublisher<Int, TestError>, Log<Event<Int>>, TrackingSubscriber<P.Output, P.Failure>)
  where P.Output: Equatable & Sendable {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<P.Output, P.Failure>(onSubscribe: { _ in })
    make(upstream).subscribe(subscriber)
    return (upstream, history, subscriber)
  }

  @Test("dropFirst hands on every completion, and values after them")
  func drop() {
    let (upstream, _, subscriber) = Self.attach { $0.dropFirst(1) }
    #expect(upstream.send(1) == .none)
    upstream.send(completion: .finished)
    upstream.send(completion: .failure(TestError()))
    #expect(upstream.send(2) == .none)
    #expect(subscriber.events == [.subscription, .finished, .failed(TestError()), .value(2)])
  }

  @Test("output(in:) counts values after the end and hands on those in the range")
  func output() {
    let (upstream, history, subscriber) = Self.attach { $0.output(in: 1..<3) }
    upstream.send(completion: .failure(TestError()))
    upstream.send(completion: .finished)
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(2) == .none)
    #expect(upstream.send(3) == .none)
    #expect(upstream.send(4) == .none)
    #expect(subscriber.events == [.subscription, .failed(TestError()), .value(2), .value(3)])
    #expect(history.all == [])
  }

  @Test("collect(_:) hands on every completion, also after a cancel")
  func collectByCount() {
    let (upstream, history, subscriber) = Self.attach { $0.collect(4) }
    subscriber.subscription?.request(.unlimited)
    #expect(upstream.send(1) == .none)
    subscriber.subscription?.cancel()
    upstream.send(completion: .finished)
    #expect(subscriber.events == [.subscription, .finished])
    #expect(history.all == [.requested(.unlimited), .cancelled])
  }

  @Test("catch hands on a value after a cancel, while demand is left")
  func catchAfterCancel() {
    let (upstream, history, subscriber) = Self.attach { $0.catch { _ in Just(-1) } }
    subscriber.subscription?.request(.max(1))
    subscriber.subscription?.cancel()
    subscriber.subscription?.request(.max(199))
    #expect(upstream.send(1) == .none)
    upstream.send(completion: .failure(TestError()))
    #expect(history.all == [.requested(.max(1)), .cancelled])
    #expect(subscriber.events == [.subscription, .value(1)])
  }

  @Test("what is handed on after the end reaches nobody once the subscriber is gone")
  func releasedSubscriber() {
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    let released = Counter()
    do {
      let subscriber = TrackingSubscriber<Int, TestError>(onDeinit: { released.increment() })
      upstream.dropFirst(0).subscribe(subscriber)
      upstream.send(completion: .finished)
    }
    // KVOLite let go of the subscriber at the end (Combine keeps it for good).
    #expect(released.count == 1)
    #expect(upstream.send(1) == .none)
  }

  @Test("flatMap hands on a child's value that comes after a cancel, within the demand")
  func flatMapAfterCancel() {
    let child = CustomPublisher<Int, Never>(history: Log())
    let outer = CustomPublisher<Int, Never>(history: Log())
    let subscriber = TrackingSubscriber<Int, Never>()
    outer.flatMap { _ in child }.subscribe(subscriber)
    #expect(outer.send(0) == .none)
    subscriber.subscription?.cancel()
    #expect(child.send(7) == .none)
    #expect(subscriber.events == [.subscription, .value(7)])
  }

  @Test("buffer takes values after upstream's .finished and delivers them before finishing")
  func bufferAfterFinished() {
    let (upstream, history, subscriber) = Self.attach {
      $0.buffer(size: 3, prefetch: .byRequest, whenFull: .dropOldest)
    }
    upstream.send(completion: .finished)
    upstream.send(completion: .failure(TestError()))
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(2) == .none)
    #expect(subscriber.events == [.subscription])
    subscriber.subscription?.request(.max(2))
    #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    subscriber.subscription?.request(.max(1))
    #expect(subscriber.events == [.subscription, .value(1), .value(2), .finished])
    #expect(history.all == [.requested(.unlimited)])
  }

  @Test("buffer keeps neither the upstream publisher nor, after its completion, the subscriber")
  func bufferLifetimes() {
    weak var publisher: CustomPublisher<Int, TestError>?
    let released = Counter()
    for completion in [Subscribers.Completion<TestError>.finished, .failure(TestError())] {
      do {
        let upstream = CustomPublisher<Int, TestError>(history: Log())
        publisher = upstream
        let subscriber = TrackingSubscriber<Int, TestError>(onDeinit: { released.increment() })
        upstream.buffer(size: 1, prefetch: .keepFull, whenFull: .dropNewest).subscribe(subscriber)
        upstream.send(completion: completion)
        upstream.release()
      }
      #expect(publisher == nil)
    }
    #expect(released.count == 2)
  }
}
