import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `retry`, as Combine's: one object is both the subscriber of every attempt and downstream's
/// subscription; demand is kept across attempts.
@Suite("Combine compatibility: retry")
struct RetryTests {
  @Test("each attempt is asked for the demand left; the last failure is passed on")
  func attempts() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { $0.request(.max(5)) })
    upstream.retry(2).subscribe(subscriber)
    for attempt in 1...3 {
      #expect(upstream.send(attempt) == .none)
      upstream.send(completion: .failure(TestError("\(attempt)")))
    }
    #expect(upstream.send(4) == .none)
    upstream.send(completion: .failure(TestError("late")))
    subscriber.subscription?.request(.max(7))
    #expect(history.all == [.requested(.max(5)), .requested(.max(4)), .requested(.max(3))])
    #expect(
      subscriber.events == [
        .subscription, .value(1), .value(2), .value(3), .failed(TestError("3")),
      ])
  }

  @Test("demand answered from inside receive is requested from upstream, not returned")
  func answeredDemandIsRequested() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(
      onSubscribe: { $0.request(.max(3)) }, onValue: { .max($0) })
    upstream.retry(5).subscribe(subscriber)
    #expect(upstream.send(5) == .none)
    #expect(history.all == [.requested(.max(3)), .requested(.max(5))])
  }

  @Test("retry(-1) and an unlimited retry subscribe again after every failure")
  func unlimited() {
    for retries in [-1, nil] as [Int?] {
      var attempts = 0
      let subscriber = TrackingSubscriber<Int, TestError>()
      Publishers.Retry(
        upstream: Deferred { () -> AnyPublisher<Int, TestError> in
          attempts += 1
          return attempts < 10_000
            ? Fail(error: TestError()).eraseToAnyPublisher()
            : Just(attempts).setFailureType(to: TestError.self).eraseToAnyPublisher()
        }, retries: retries
      ).subscribe(subscriber)
      // Attempts that fail while being subscribed are retried in a loop, not recursively.
      #expect(attempts == 10_000)
      #expect(subscriber.events == [.subscription, .value(10_000), .finished])
    }
  }

  @Test("a .finished sent while an attempt is being subscribed ends it with .finished")
  func finishedWhileResubscribing() {
    var attempts = 0
    let subscriber = TrackingSubscriber<Int, TestError>()
    Deferred { () -> AnyPublisher<Int, TestError> in
      attempts += 1
      return attempts < 6
        ? Fail(error: TestError()).eraseToAnyPublisher()
        : Empty().eraseToAnyPublisher()
    }.retry(10).subscribe(subscriber)
    #expect(attempts == 6)
    #expect(subscriber.events == [.subscription, .finished])
  }

  @Test("downstream's subscription is the object subscribed upstream")
  func sameObject() {
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    let subscriber = TrackingSubscriber<Int, TestError>()
    upstream.retry(1).subscribe(subscriber)
    #expect(upstream.subscriber as AnyObject === subscriber.subscription as AnyObject)
    #expect(upstream.subscriberDescription == "Retry" && upstream.subscriberMirror == [])
  }

  @Test("a value nobody asked for traps, as in Combine")
  func unrequestedValue() async {
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, TestError>(history: Log())
      upstream.retry(1).subscribe(TrackingSubscriber<Int, TestError>(onSubscribe: { _ in }))
      _ = upstream.send(1)
    }
  }
}

/// `zip`'s demand while a tuple is being delivered.
@Suite("Combine compatibility: zip's demand")
struct ZipDemandTests {
  @Test("a request made while a tuple is delivered goes back to the side that completed it")
  func requestWhileDelivering() {
    for initial in [Subscribers.Demand.unlimited, .max(10)] {
      let first = Log<Event<Int>>()
      let second = Log<Event<Int>>()
      let a = CustomPublisher<Int, TestError>(history: first)
      let b = CustomPublisher<Int, TestError>(history: second)
      var subscription: (any Subscription)?
      let subscriber = TrackingSubscriber<Int, TestError>(
        onSubscribe: {
          subscription = $0
          $0.request(initial)
        },
        onValue: { _ in
          subscription?.request(.max(666))
          return .none
        })
      a.zip(b).map { $0 + $1 }.subscribe(subscriber)
      #expect(a.send(1) == .none)
      #expect(b.send(1) == .max(666))
      #expect(first.all == [.requested(initial), .requested(.max(666))])
      #expect(second.all == [.requested(initial)])
    }
  }

  @Test("the demand answered from receive goes back to the side that completed the tuple")
  func answeredDemand() {
    let a = CustomPublisher<Int, TestError>(history: Log())
    let b = CustomPublisher<Int, TestError>(history: Log())
    let c = CustomPublisher<Int, TestError>(history: Log())
    let subscriber = TrackingSubscriber<Int, TestError>(onValue: { _ in .max(1) })
    a.zip(b, c).map { $0 + $1 + $2 }.subscribe(subscriber)
    #expect([a.send(1), b.send(1), c.send(1)] == [.none, .none, .max(1)])
    #expect(subscriber.events == [.subscription, .value(3)])
  }
}
