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
}
