import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `dropFirst` with Combine's state machine.
@Suite("Combine compatibility: dropFirst")
struct DropTests {
  @Test(
    "downstream is subscribed first; upstream is asked for what downstream asked plus the count")
  func subscriptionOrder() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history, subscribesAtOnce: false)
    let subscriber = TrackingSubscriber<Int, TestError>(
      history: history, onSubscribe: { $0.request(.max(2)) }, onValue: { _ in .max(1) })
    upstream.dropFirst(3).subscribe(subscriber)
    #expect(subscriber.subscriptionDescription == "Drop")
    subscriber.subscription?.request(.max(1))
    upstream.sendSubscription()
    subscriber.subscription?.request(.max(4))
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(2) == .none)
    #expect(upstream.send(3) == .none)
    #expect(upstream.send(4) == .max(1))
    upstream.send(completion: .finished)
    #expect(
      history.all == [
        .subscription, .requested(.max(6)), .requested(.max(4)), .value(4), .finished,
      ])
    #expect(Mirror(reflecting: subscriber.subscription!).children.isEmpty)
  }

  @Test("with nothing to drop and nothing asked, upstream is asked for nothing")
  func zero() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(history: history, onSubscribe: { _ in })
    upstream.dropFirst(0).subscribe(subscriber)
    #expect(upstream.send(1) == .none)
    #expect(history.all == [.subscription, .value(1)])
  }

  @Test(
    "a cancel before upstream's subscription does not stop it being taken; a second one is cancelled"
  )
  func cancelThenSubscription() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history, subscribesAtOnce: false)
    let subscriber = TrackingSubscriber<Int, TestError>(history: history, onSubscribe: { _ in })
    upstream.dropFirst(2).subscribe(subscriber)
    subscriber.subscription?.cancel()
    upstream.sendSubscription()
    let second = CustomSubscription<Int>(history: history)
    upstream.sendSubscription(second)
    subscriber.subscription?.cancel()
    subscriber.subscription?.cancel()
    #expect(history.all == [.subscription, .requested(.max(2)), .cancelled, .cancelled])
  }

  @Test(
    "after the completion, a new subscription from upstream is asked for what is left to drop plus what was requested since"
  )
  func subscriptionAfterTheEnd() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(
      history: history, onSubscribe: { _ in }, onValue: { _ in .max(2) })
    upstream.dropFirst(4).subscribe(subscriber)
    upstream.send(completion: .finished)
    subscriber.subscription?.cancel()
    subscriber.subscription?.request(.max(20))
    subscriber.subscription?.request(.max(5))
    #expect(upstream.send(1) == .none)
    let second = CustomSubscription<Int>(history: history)
    upstream.sendSubscription(second)
    #expect(upstream.send(2) == .none)
    #expect(upstream.send(3) == .none)
    #expect(upstream.send(4) == .none)
    #expect(upstream.send(5) == .max(2))
    #expect(
      history.all == [
        .subscription, .requested(.max(4)), .finished, .requested(.max(28)), .value(5),
      ])
  }

  @Test(
    "the subscriber is released when the subscription ends (a deliberate difference: Combine keeps it)"
  )
  func lifecycle() {
    let released = Counter()
    do {
      let subject = PassthroughSubject<Int, TestError>()
      let subscriber = TrackingSubscriber<Int, TestError>(onDeinit: released.increment)
      subject.dropFirst(42).subscribe(subscriber)
      subject.send(completion: .finished)
    }
    #expect(released.count == 1)
    do {
      let subject = PassthroughSubject<Int, TestError>()
      let subscriber = TrackingSubscriber<Int, TestError>(onDeinit: released.increment)
      subject.dropFirst(42).subscribe(subscriber)
      subscriber.subscription?.cancel()
    }
    #expect(released.count == 2)
  }

  @Test("a negative count traps at subscription, not before; requesting none traps")
  func traps() async {
    _ = PassthroughSubject<Int, Never>().dropFirst(-1)
    await #expect(processExitsWith: .failure) {
      _ = PassthroughSubject<Int, Never>().dropFirst(-1).sink { _ in }
    }
    await #expect(processExitsWith: .failure) {
      let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { $0.request(.none) })
      PassthroughSubject<Int, Never>().dropFirst().subscribe(subscriber)
    }
  }
}
