import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// Hands a subscription to the threads of a test; set once, before they start.
private final class SubscriptionHolder: @unchecked Sendable {
  var subscription: (any Subscription)?
}

/// `buffer(size:prefetch:whenFull:)` with Combine's state machine.
@Suite("Combine compatibility: buffer")
struct BufferTests {
  /// An upstream, a subscriber that asks for nothing at first, and the buffer between them.
  private func make(
    size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<TestError>
  ) -> (Log<Event<Int>>, CustomPublisher<Int, TestError>, TrackingSubscriber<Int, TestError>) {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(history: history, onSubscribe: { _ in })
    upstream.buffer(size: size, prefetch: prefetch, whenFull: whenFull).subscribe(subscriber)
    return (history, upstream, subscriber)
  }

  @Test("keepFull asks for the size, holds values until asked, and refills one per delivery")
  func keepFull() {
    let (history, upstream, subscriber) = make(size: 3, prefetch: .keepFull, whenFull: .dropNewest)
    #expect(subscriber.subscriptionDescription == "Buffer")
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(2) == .none)
    subscriber.subscription?.request(.max(1))
    #expect(upstream.send(3) == .none)
    subscriber.subscription?.request(.max(5))
    upstream.send(completion: .finished)
    #expect(
      history.all == [
        .requested(.max(3)), .subscription, .value(1), .requested(.max(1)), .value(2), .value(3),
        .requested(.max(2)), .finished,
      ])
  }

  @Test("byRequest asks for everything at once")
  func byRequest() {
    let (history, upstream, subscriber) = make(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
    #expect(upstream.send(1) == .none)
    subscriber.subscription?.request(.unlimited)
    #expect(upstream.send(2) == .none)
    #expect(history.all == [.requested(.unlimited), .subscription, .value(1), .value(2)])
  }

  @Test("a full buffer drops the newest or the oldest value")
  func dropping() {
    let (newest, upstreamN, subscriberN) = make(
      size: 2, prefetch: .byRequest, whenFull: .dropNewest)
    for value in 1...4 { upstreamN.send(value) }
    subscriberN.subscription?.request(.unlimited)
    #expect(newest.all.suffix(2) == [.value(1), .value(2)])

    let (oldest, upstreamO, subscriberO) = make(
      size: 2, prefetch: .byRequest, whenFull: .dropOldest)
    for value in 1...4 { upstreamO.send(value) }
    subscriberO.subscription?.request(.unlimited)
    #expect(oldest.all.suffix(2) == [.value(3), .value(4)])
  }

  @Test("customError cancels upstream; the failure goes out at downstream's next request")
  func customError() {
    let (history, upstream, subscriber) = make(
      size: 1, prefetch: .byRequest, whenFull: .customError { TestError("full") })
    upstream.send(1)
    upstream.send(2)
    #expect(history.all == [.requested(.unlimited), .subscription, .cancelled])
    subscriber.subscription?.request(.max(1))
    #expect(history.all.suffix(1) == [.failed(TestError("full"))])
  }

  @Test(
    "a failure goes out at once, dropping buffered values; a finish waits for them and for demand")
  func completions() {
    let (failing, upstreamF, _) = make(size: 4, prefetch: .byRequest, whenFull: .dropNewest)
    upstreamF.send(1)
    upstreamF.send(completion: .failure(TestError()))
    #expect(failing.all == [.requested(.unlimited), .subscription, .failed(TestError())])

    let (finishing, upstreamD, subscriberD) = make(
      size: 4, prefetch: .byRequest, whenFull: .dropNewest)
    upstreamD.send(1)
    upstreamD.send(completion: .finished)
    #expect(finishing.all == [.requested(.unlimited), .subscription])
    subscriberD.subscription?.request(.max(1))
    #expect(finishing.all.suffix(1) == [.value(1)])  // the finish waits for demand, as Combine's
    subscriberD.subscription?.request(.max(1))
    #expect(finishing.all.suffix(2) == [.value(1), .finished])
  }

  @Test(
    "a failure that arrives while a batch is delivered follows the batch, never precedes its values (a deliberate difference: Combine sends the rest after the failure)"
  )
  func failureDuringDelivery() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(
      history: history, onSubscribe: { _ in },
      onValue: { _ in
        upstream.send(completion: .failure(TestError()))
        return .none
      })
    upstream.buffer(size: 5, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
    for value in 1...5 { #expect(upstream.send(value) == .none) }
    subscriber.subscription?.request(.max(3))
    #expect(
      history.all == [
        .requested(.unlimited), .subscription, .value(1), .value(2), .value(3),
        .failed(TestError()),
      ])
  }

  @Test(
    "a failure that arrives while upstream is asked, before downstream has its subscription, follows the subscription (a deliberate difference: Combine sends it first)"
  )
  func failureBeforeTheHandover() {
    let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { _ in })
    Future<Int, TestError> { $0(.failure(TestError())) }
      .buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
    #expect(subscriber.events == [.subscription, .failed(TestError())])
    let asking = TrackingSubscriber<Int, TestError>()
    Future<Int, TestError> { $0(.failure(TestError())) }
      .buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest).subscribe(asking)
    #expect(asking.events == [.subscription, .failed(TestError())])
  }

  @Test("cancel cancels upstream once and drops what is buffered")
  func cancelling() {
    let (history, upstream, subscriber) = make(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
    upstream.send(1)
    subscriber.subscription?.cancel()
    subscriber.subscription?.cancel()
    subscriber.subscription?.request(.max(1))
    #expect(upstream.send(2) == .none)
    #expect(history.all == [.requested(.unlimited), .subscription, .cancelled])
  }

  @Test("values sent from inside a delivery keep their order")
  func reentrant() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.buffer(size: 10, prefetch: .byRequest, whenFull: .dropNewest)
      .sink { value in
        received.append(value)
        if value == 1 { subject.send(3) }
      }
    subject.send(1)
    subject.send(2)
    #expect(received == [1, 3, 2])
    _ = cancellable
  }

  @Test("values sent on one thread and requested on another all arrive, in order, once")
  func concurrentRequests() {
    let subject = PassthroughSubject<Int, Never>()
    let received = Locked<[Int]>([])
    let holder = SubscriptionHolder()
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { incoming in holder.subscription = incoming },
      receiveValue: { value in
        received.withLock { $0.append(value) }
        return .none
      },
      receiveCompletion: { _ in })
    subject.buffer(size: 1_000, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
    let request = holder
    race(workers: 2) { worker in
      if worker == 0 {
        for value in 0..<500 { subject.send(value) }
      } else {
        for _ in 0..<500 { request.subscription?.request(.max(1)) }
      }
    }
    request.subscription?.request(.max(1))
    #expect(received.withLock { $0 } == Array(0..<500))
  }
}
