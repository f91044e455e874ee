import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)`, as Combine's: one object is both
/// what they subscribe upstream and downstream's subscription.
@Suite("Combine compatibility: drop(untilOutputFrom:), prefix(untilOutputFrom:)")
struct UntilOutputTests {
  @Test("drop: the other publisher's completion before its value is handed on, each time")
  func dropOtherCompletes() {
    let upstreamHistory = Log<Event<Int>>()
    let otherHistory = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: upstreamHistory)
    let other = CustomPublisher<Int, TestError>(history: otherHistory)
    let subscriber = TrackingSubscriber<Int, TestError>(
      onSubscribe: { $0.request(.max(100)) }, onValue: { _ in .max(5) })
    upstream.drop(untilOutputFrom: other).subscribe(subscriber)
    #expect(upstream.send(1) == .none)
    other.send(completion: .finished)
    other.send(completion: .finished)
    #expect(upstreamHistory.all == [.requested(.max(100)), .cancelled])
    #expect(otherHistory.all == [.requested(.max(1))])
    // As in Combine, the other publisher's value still opens the gate afterwards.
    #expect(upstream.send(3) == .none)
    #expect(other.send(1000) == .none)
    #expect(upstream.send(4) == .max(5))
    #expect(subscriber.events == [.subscription, .finished, .finished, .value(4)])
  }

  @Test("drop: the order of subscription, and one identity for both inner subscribers")
  func dropHandshake() {
    let order = Log<String>()
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    let other = CustomPublisher<Int, TestError>(history: Log())
    let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { _ in
      order.append("downstream subscribed")
    })
    upstream.handleEvents(receiveSubscription: { _ in order.append("upstream subscribed") })
      .drop(
        untilOutputFrom: other.handleEvents(receiveSubscription: { _ in
          order.append("other subscribed")
        })
      )
      .subscribe(subscriber)
    #expect(order.all == ["downstream subscribed", "other subscribed", "upstream subscribed"])
    let inner = TrackingSubscriber<Int, TestError>()
    upstream.drop(untilOutputFrom: other).subscribe(inner)
    #expect(upstream.subscriber as AnyObject === inner.subscription as AnyObject)
    let otherSide = other.subscriber as? any CustomCombineIdentifierConvertible
    #expect(otherSide?.combineIdentifier == inner.subscription?.combineIdentifier)
    #expect(other.subscriberDescription == "DropUntilOutput")
  }

  @Test("drop: a request before upstream's subscription is kept for it, .none too")
  func dropLateSubscription() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, Never>(history: history, subscribesAtOnce: false)
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: {
      $0.request(.max(10))
      $0.request(.max(4))
      $0.request(.none)
    })
    upstream.drop(untilOutputFrom: Empty<Void, Never>()).subscribe(subscriber)
    #expect(subscriber.events == [.subscription, .finished])
    upstream.sendSubscription()
    #expect(history.all == [.requested(.max(14))])
  }

  @Test("drop: a value nobody asked for before the other publisher's value traps")
  func dropTraps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, Never>(history: Log())
      upstream.drop(untilOutputFrom: PassthroughSubject<Void, Never>())
        .subscribe(TrackingSubscriber<Int, Never>(onSubscribe: { _ in }))
      _ = upstream.send(0)
    }
  }

  @Test("prefix: one object upstream and downstream; a value of the other first finishes")
  func prefixHandshake() {
    let trigger = PassthroughSubject<Int, Never>()
    let upstream = CustomPublisher<Int, Never>(history: Log())
    let subscriber = TrackingSubscriber<Int, Never>()
    upstream.prefix(untilOutputFrom: trigger).subscribe(subscriber)
    #expect(upstream.subscriber as AnyObject === subscriber.subscription as AnyObject)
    // Like Combine's, it does not describe itself.
    #expect(!(upstream.subscriber is any CustomStringConvertible))

    let history = Log<Event<Int>>()
    let late = CustomPublisher<Int, Never>(history: history, subscribesAtOnce: false)
    let lateTrigger = PassthroughSubject<Int, Never>()
    let lateSubscriber = TrackingSubscriber<Int, Never>()
    late.prefix(untilOutputFrom: lateTrigger).subscribe(lateSubscriber)
    lateTrigger.send(-1)
    #expect(lateSubscriber.events == [.finished])
    late.sendSubscription()
    #expect(history.all == [.cancelled])
    #expect(lateSubscriber.events == [.finished])
  }
}
