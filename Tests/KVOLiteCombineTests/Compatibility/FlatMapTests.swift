import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `flatMap(maxPublishers:_:)` with Combine's demand handling.
@Suite("Combine compatibility: flatMap")
struct FlatMapTests {
  @Test(
    "children's values interleave; upstream is asked for maxPublishers, then one per finished child"
  )
  func maxPublishers() {
    let outerHistory = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: outerHistory)
    let children = (0..<3).map { _ in PassthroughSubject<Int, TestError>() }
    let subscriber = TrackingSubscriber<Int, TestError>()
    upstream.flatMap(maxPublishers: .max(2)) { children[$0] }.subscribe(subscriber)
    #expect(subscriber.subscriptionDescription == "FlatMap")
    #expect(outerHistory.all == [.requested(.max(2))])
    #expect(upstream.send(0) == .none)
    #expect(upstream.send(1) == .none)
    children[1].send(10)
    children[0].send(1)
    children[0].send(completion: .finished)
    #expect(outerHistory.all == [.requested(.max(2)), .requested(.max(1))])
    #expect(upstream.send(2) == .none)
    children[2].send(20)
    upstream.send(completion: .finished)
    children[1].send(completion: .finished)
    #expect(subscriber.events == [.subscription, .value(10), .value(1), .value(20)])
    children[2].send(completion: .finished)
    #expect(subscriber.events == [.subscription, .value(10), .value(1), .value(20), .finished])
  }

  @Test("with limited demand, children's values wait in a buffer and go out as demand arrives")
  func limitedDemand() {
    let upstream = PassthroughSubject<[Int], Never>()
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { $0.request(.max(1)) })
    upstream.flatMap { $0.publisher }.subscribe(subscriber)
    upstream.send([1, 2, 3])
    #expect(subscriber.events == [.subscription, .value(1)])
    subscriber.subscription?.request(.max(1))
    #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    subscriber.subscription?.request(.unlimited)
    upstream.send([4])
    upstream.send(completion: .finished)
    #expect(
      subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .finished])
  }

  @Test(
    "a child's failure cancels the others and upstream's is passed on; cancel reaches everything")
  func failureAndCancel() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let children = [
      CustomPublisher<Int, TestError>(history: history),
      CustomPublisher<Int, TestError>(history: history),
    ]
    let subscriber = TrackingSubscriber<Int, TestError>(history: history)
    upstream.flatMap { children[$0] }.subscribe(subscriber)
    upstream.send(0)
    upstream.send(1)
    children[0].send(completion: .failure(TestError("child")))
    #expect(
      history.all == [
        .subscription, .requested(.unlimited), .requested(.unlimited), .requested(.unlimited),
        .cancelled,
        .failed(TestError("child")),
      ])
    let other = Log<Event<Int>>()
    let outer = CustomPublisher<Int, TestError>(history: other)
    let child = CustomPublisher<Int, TestError>(history: other)
    let cancelling = TrackingSubscriber<Int, TestError>(history: other)
    outer.flatMap { _ in child }.subscribe(cancelling)
    outer.send(0)
    cancelling.subscription?.cancel()
    #expect(
      other.all == [
        .subscription, .requested(.unlimited), .requested(.unlimited), .cancelled, .cancelled,
      ])
  }

  @Test("the failure-type overloads compose publishers that cannot fail with ones that can")
  func overloads() {
    let never = [1, 2].publisher
    let _:
      Publishers.FlatMap<
        Publishers.SetFailureType<Just<Int>, TestError>, PassthroughSubject<Int, TestError>
      > =
        PassthroughSubject<Int, TestError>().flatMap { Just($0) }
    let _:
      Publishers.FlatMap<
        Fail<Int, TestError>,
        Publishers.SetFailureType<Publishers.Sequence<[Int], Never>, TestError>
      > =
        never.flatMap { _ in Fail<Int, TestError>(error: TestError()) }
    #expect(never.flatMap { Just($0 * 10) }.collect().sinkValues() == [[10, 20]])
  }
}
