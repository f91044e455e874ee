import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `Publishers.Sequence`, `Fail`, `Optional.Publisher`, `Result.Publisher`, `Deferred`, `Future`.
@Suite("Combine compatibility: Sequence, Fail, Optional, Result, Deferred, Future")
struct PublisherSourcesTests {
  @Test("a sequence publishes within demand, takes requests from inside receive, then finishes")
  func sequence() {
    let subscriber = TrackingSubscriber<Int, Never>(
      onSubscribe: { $0.request(.max(1)) }, onValue: { $0 == 1 ? .max(1) : .none })
    [1, 2, 3].publisher.subscribe(subscriber)
    #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    #expect(subscriber.subscriptionDescription == "[1, 2, 3]")
    let reentrant = TrackingSubscriber<Int, Never>(onSubscribe: { $0.request(.max(1)) })
    [7, 8].publisher.subscribe(reentrant)
    reentrant.subscription?.request(.max(5))
    #expect(reentrant.events == [.subscription, .value(7), .value(8), .finished])
    #expect(reentrant.subscriptionDescription == "Sequence")
    let empty = TrackingSubscriber<Int, Never>()
    [Int]().publisher.subscribe(empty)
    #expect(empty.events == [.subscription, .finished] && empty.subscriptionDescription == "Empty")
  }

  @Test(
    "a subscriber that requests from inside receive gets the next value after it returns, in order")
  func sequenceRequestInsideReceive() {
    let log = Log<String>()
    final class Box: @unchecked Sendable { var subscription: (any Subscription)? }
    let box = Box()
    let subscriber = TrackingSubscriber<Int, Never>(
      onSubscribe: {
        box.subscription = $0
        $0.request(.max(1))
      },
      onValue: { value in
        log.append("begin \(value)")
        box.subscription?.request(.max(1))
        log.append("end \(value)")
        return .none
      })
    (1...3).publisher.subscribe(subscriber)
    #expect(log.all == ["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3"])
    #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .finished])
  }

  @Test("Fail, Optional and Result publishers")
  func singleShots() {
    let failing = TrackingSubscriber<Int, TestError>()
    Fail<Int, TestError>(error: TestError()).subscribe(failing)
    #expect(
      failing.events == [.subscription, .failed(TestError())]
        && failing.subscriptionDescription == "Empty")
    let some = TrackingSubscriber<Int, Never>(onSubscribe: { _ in })
    Optional(4).publisher.subscribe(some)
    #expect(some.subscriptionDescription == "Optional")
    some.subscription?.request(.max(1))
    #expect(some.events == [.subscription, .value(4), .finished])
    let none = TrackingSubscriber<Int, Never>()
    Optional<Int>.none.publisher.subscribe(none)
    #expect(none.events == [.subscription, .finished])
    let success = TrackingSubscriber<Int, TestError>()
    Result<Int, TestError>.success(2).publisher.subscribe(success)
    #expect(
      success.events == [.subscription, .value(2), .finished]
        && success.subscriptionDescription == "Once")
    let failure = TrackingSubscriber<Int, TestError>()
    Result<Int, TestError>.failure(TestError("r")).publisher.subscribe(failure)
    #expect(failure.events == [.subscription, .failed(TestError("r"))])
  }

  @Test("Deferred makes a publisher per subscriber, when it subscribes")
  func deferred() {
    var made = 0
    let deferred = Deferred { () -> Just<Int> in
      made += 1
      return Just(made)
    }
    #expect(made == 0)
    var seen: [Int] = []
    _ = deferred.sink { seen.append($0) }
    _ = deferred.sink { seen.append($0) }
    #expect(seen == [1, 2])
  }

  @Test(
    "Future: the first promise wins; a value waits for demand, a failure does not; late subscribers get it on request"
  )
  func future() {
    var fulfil: ((Result<Int, TestError>) -> Void)?
    let future = Future<Int, TestError> { fulfil = $0 }
    let early = TrackingSubscriber<Int, TestError>(onSubscribe: { _ in })
    let eager = TrackingSubscriber<Int, TestError>()
    future.subscribe(early)
    future.subscribe(eager)
    #expect(early.subscriptionDescription == "Future")
    fulfil?(.success(1))
    fulfil?(.success(2))
    #expect(eager.events == [.subscription, .value(1), .finished])
    #expect(early.events == [.subscription])
    early.subscription?.request(.max(1))
    #expect(early.events == [.subscription, .value(1), .finished])
    let late = TrackingSubscriber<Int, TestError>(onSubscribe: { _ in })
    future.subscribe(late)
    #expect(late.events == [.subscription])
    late.subscription?.request(.max(1))
    #expect(late.events == [.subscription, .value(1), .finished])
    let failed = Future<Int, TestError> { $0(.failure(TestError())) }
    let noDemand = TrackingSubscriber<Int, TestError>(onSubscribe: { _ in })
    failed.subscribe(noDemand)
    #expect(noDemand.events == [.subscription, .failed(TestError())])
  }

  @Test(
    "Future: the subscription keeps its future (its mirror's parent) while it delivers the promise's result, and lets go of it after; after a request, it keeps it"
  )
  func futureKeepsParentWhileDelivering() {
    /// Records, at each event, whether its subscription's mirror has a future as `parent`.
    final class ParentWatcher: Subscriber {
      typealias Input = Int
      typealias Failure = TestError
      var subscription: (any Subscription)?
      var seen: [String] = []
      let requesting: Bool
      init(requesting: Bool = true) { self.requesting = requesting }
      var hasParent: Bool {
        let parent = subscription.flatMap {
          Mirror(reflecting: $0).children.first { $0.label == "parent" }?.value
        }
        return (parent as? Future<Int, TestError>?).flatMap { $0 } != nil
      }
      func receive(subscription: any Subscription) {
        self.subscription = subscription
        if requesting { subscription.request(.unlimited) }
        seen.append("subscription: \(hasParent)")
      }
      func receive(_ input: Int) -> Subscribers.Demand {
        seen.append("value: \(hasParent)")
        return .none
      }
      func receive(completion: Subscribers.Completion<TestError>) {
        seen.append("completion: \(hasParent)")
      }
    }
    var fulfil: ((Result<Int, TestError>) -> Void)?
    let future = Future<Int, TestError> { fulfil = $0 }
    let succeeding = ParentWatcher()
    future.subscribe(succeeding)
    fulfil?(.success(1))
    #expect(
      succeeding.seen == ["subscription: true", "value: true", "completion: true"]
        && !succeeding.hasParent)
    var fail: ((Result<Int, TestError>) -> Void)?
    let failing = ParentWatcher()
    Future<Int, TestError> { fail = $0 }.subscribe(failing)
    fail?(.failure(TestError()))
    #expect(failing.seen == ["subscription: true", "completion: true"] && !failing.hasParent)
    // Delivered on a request, after the promise: the subscription keeps its future, as
    // Combine's does.
    let fulfilled = Future<Int, TestError> { $0(.success(2)) }
    let late = ParentWatcher(requesting: false)
    fulfilled.subscribe(late)
    late.subscription?.request(.max(1))
    #expect(
      late.seen == ["subscription: true", "value: true", "completion: true"] && late.hasParent)
  }

  @Test("Future's promise can be called from many threads at once: one result, delivered once")
  func futureRace() {
    /// The promise, handed to the racing threads (Combine's promise is thread-safe but not
    /// declared `Sendable`).
    final class Promise: @unchecked Sendable {
      var fulfil: ((Result<Int, Never>) -> Void)?
    }
    for _ in 0..<50 {
      let promise = Promise()
      let future = Future<Int, Never> { promise.fulfil = $0 }
      let received = Counter()
      let cancellable = future.sink { _ in received.increment() }
      race(workers: 4) { worker in promise.fulfil?(.success(worker)) }
      #expect(received.count == 1)
      _ = cancellable
    }
  }
}
