import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `switchToLatest()`.
@Suite("Combine compatibility: switchToLatest")
struct SwitchToLatestTests {
  @Test(
    "a new publisher cancels the previous; it is asked for the demand left; finishes after both")
  func switches() {
    let history = Log<Event<Int>>()
    let upstream = PassthroughSubject<CustomPublisher<Int, TestError>, TestError>()
    let first = CustomPublisher<Int, TestError>(history: history)
    let second = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(
      history: history, onSubscribe: { $0.request(.max(3)) })
    upstream.switchToLatest().subscribe(subscriber)
    #expect(subscriber.subscriptionDescription == "SwitchToLatest")
    upstream.send(first)
    #expect(first.send(1) == .none)
    upstream.send(second)
    #expect(first.send(99) == .none)
    #expect(second.send(2) == .none)
    upstream.send(completion: .finished)
    #expect(subscriber.events.last == .value(2))
    second.send(completion: .finished)
    #expect(
      history.all == [
        .subscription, .requested(.max(3)), .value(1), .cancelled, .requested(.max(2)), .value(2),
        .finished,
      ])
  }

  @Test("a child's failure cancels upstream and fails; cancel reaches both")
  func failureAndCancel() {
    let outerHistory = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: outerHistory)
    let child = PassthroughSubject<Int, TestError>()
    let subscriber = TrackingSubscriber<Int, TestError>()
    upstream.map { _ in child }.switchToLatest().subscribe(subscriber)
    upstream.send(0)
    child.send(completion: .failure(TestError()))
    #expect(subscriber.events == [.subscription, .failed(TestError())])
    #expect(outerHistory.all == [.requested(.unlimited), .cancelled])
    let search = PassthroughSubject<String, Never>()
    var results: [String] = []
    let cancellable = search.map { Just("results for \($0)") }.switchToLatest().sink {
      results.append($0)
    }
    search.send("a")
    search.send("ab")
    #expect(results == ["results for a", "results for ab"])
    cancellable.cancel()
    search.send("abc")
    #expect(results.count == 2)
  }

  /// A publisher of any output that keeps its subscriber, for sending events by hand.
  final class Outer<Output>: Publisher, @unchecked Sendable {
    typealias Failure = TestError
    var subscriber: AnySubscriber<Output, TestError>?
    var subscriberObject: AnyObject?
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == TestError {
      self.subscriber = AnySubscriber(subscriber)
      subscriberObject = subscriber as AnyObject
      subscriber.receive(subscription: Subscriptions.empty)
    }
    func send(_ value: Output) -> Subscribers.Demand { subscriber?.receive(value) ?? .none }
    func send(completion: Subscribers.Completion<TestError>) {
      subscriber?.receive(completion: completion)
    }
  }

  @Test("downstream's subscription is the object subscribed upstream; children share nothing")
  func sameObject() {
    let upstream = Outer<CustomPublisher<Int, TestError>>()
    let subscriber = TrackingSubscriber<Int, TestError>()
    upstream.switchToLatest().subscribe(subscriber)
    #expect(upstream.subscriberObject === subscriber.subscription as AnyObject)
    let child = CustomPublisher<Int, TestError>(history: Log())
    #expect(upstream.send(child) == .none)
    #expect(child.subscriberDescription == "SwitchToLatest")
    #expect(child.subscriberMirror.map { $0.prefix(18) } == ["parentSubscription"])
  }

  @Test("after upstream fails, the latest publisher's values still reach the subscriber")
  func valuesAfterFailure() {
    let upstream = Outer<CustomPublisher<Int, TestError>>()
    let childHistory = Log<Event<Int>>()
    let child = CustomPublisher<Int, TestError>(history: childHistory)
    let subscriber = TrackingSubscriber<Int, TestError>(onValue: { _ in .max(100) })
    upstream.switchToLatest().subscribe(subscriber)
    #expect(upstream.send(child) == .none)
    upstream.send(completion: .failure(TestError()))
    #expect(childHistory.all == [.requested(.unlimited), .cancelled])
    #expect(child.send(1) == .max(100))
    child.send(completion: .finished)
    child.send(completion: .failure(TestError()))
    #expect(subscriber.events == [.subscription, .failed(TestError()), .value(1)])
  }

  @Test("a value nobody asked for, or a completion before the subscription, traps")
  func traps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = PassthroughSubject<CustomPublisher<Int, Never>, Never>()
      upstream.switchToLatest().subscribe(TrackingSubscriber<Int, Never>(onSubscribe: { _ in }))
      let child = CustomPublisher<Int, Never>(history: Log())
      upstream.send(child)
      _ = child.send(1)
    }
    await #expect(processExitsWith: .failure) {
      let upstream = PassthroughSubject<CustomPublisher<Int, Never>, Never>()
      upstream.switchToLatest().subscribe(TrackingSubscriber<Int, Never>())
      let child = CustomPublisher<Int, Never>(history: Log(), subscribesAtOnce: false)
      upstream.send(child)
      child.send(completion: .finished)
    }
  }
}
