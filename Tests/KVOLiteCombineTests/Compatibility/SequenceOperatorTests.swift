import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// scan, tryScan, ignoreOutput, replaceError, replaceEmpty, prefix/output, drop(while:), collect(_:).
@Suite(
  "Combine compatibility: scan, ignoreOutput, replaceError, replaceEmpty, output, drop(while:), collect(count)"
)
struct SequenceOperatorTests {
  @Test(
    "scan publishes the running result through upstream's subscription; tryScan fails on a throw")
  func scan() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(history: history, onValue: { _ in .max(1) })
    upstream.scan(10, +).subscribe(subscriber)
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(2) == .max(1))
    #expect(history.all == [.subscription, .requested(.unlimited), .value(11), .value(13)])
    #expect(upstream.subscriberDescription == "Scan")
    #expect(upstream.subscriberMirror.map { $0.prefix(6) } == ["downst", "result"])
    let tryHistory = Log<Event<Int>>()
    let tryUpstream = CustomPublisher<Int, TestError>(history: tryHistory)
    let trySubscriber = TrackingSubscriber<Int, any Error>(history: tryHistory)
    tryUpstream.tryScan(0) { result, value in
      if value == 3 { throw TestError("three") }
      return result + value
    }.subscribe(trySubscriber)
    tryUpstream.send(1)
    tryUpstream.send(3)
    tryUpstream.send(5)
    // As in Combine, the value after the failure still goes into the result and on to the
    // subscriber (which is alive).
    #expect(
      tryHistory.all == [
        .subscription, .requested(.unlimited), .value(1), .cancelled, .failed(TestError("three")),
        .value(6),
      ])
    #expect(trySubscriber.subscriptionDescription == "TryScan")
  }

  @Test("ignoreOutput asks for unlimited at once and passes only the completion")
  func ignoreOutput() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Never, TestError>(onSubscribe: { _ in })
    upstream.ignoreOutput().subscribe(subscriber)
    #expect(upstream.send(1) == .none)
    upstream.send(completion: .failure(TestError()))
    #expect(history.all == [.requested(.unlimited)])
    #expect(subscriber.events == [.subscription, .failed(TestError())])
    #expect(upstream.subscriberDescription == "IgnoreOutput")
  }

  @Test("replaceError sends the replacement at once with demand, or on the next request")
  func replaceError() {
    let subscriber = TrackingSubscriber<Int, Never>(onSubscribe: { $0.request(.max(2)) })
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    upstream.replaceError(with: 0).subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .failure(TestError()))
    #expect(subscriber.events == [.subscription, .value(1), .value(0), .finished])
    #expect(subscriber.subscriptionDescription == "ReplaceError")
    let waiting = TrackingSubscriber<Int, Never>(onSubscribe: { $0.request(.max(1)) })
    let other = CustomPublisher<Int, TestError>(history: Log())
    other.replaceError(with: 0).subscribe(waiting)
    other.send(1)
    other.send(completion: .failure(TestError()))
    #expect(waiting.events == [.subscription, .value(1)])
    waiting.subscription?.request(.max(1))
    waiting.subscription?.request(.max(1))
    #expect(waiting.events == [.subscription, .value(1), .value(0), .finished])
  }

  @Test("replaceEmpty sends its value only when upstream finishes empty, waiting for a request")
  func replaceEmpty() {
    let empty = TrackingSubscriber<Int, TestError>(onSubscribe: { _ in })
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    upstream.replaceEmpty(with: 9).subscribe(empty)
    upstream.send(completion: .finished)
    #expect(empty.events == [.subscription])
    empty.subscription?.request(.max(1))
    #expect(empty.events == [.subscription, .value(9), .finished])
    #expect(empty.subscriptionDescription == "ReplaceEmpty")
    #expect(
      Publishers.Sequence<[Int], Never>(sequence: [1]).replaceEmpty(with: 9).collect().sinkValues()
        == [[1]])
    #expect(
      Publishers.Sequence<[Int], Never>(sequence: []).replaceEmpty(with: 9).collect().sinkValues()
        == [[9]])
  }

  @Test("prefix and output(at:in:) take positions; the value after the range ends it")
  func output() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(history: history)
    upstream.output(in: 1..<3).subscribe(subscriber)
    #expect(upstream.send(0) == .max(1))
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(2) == .none)
    #expect(history.all == [.subscription, .requested(.unlimited), .value(1), .value(2)])
    #expect(upstream.send(3) == .none)
    #expect(
      history.all == [
        .subscription, .requested(.unlimited), .value(1), .value(2), .cancelled, .finished,
      ])
    #expect(subscriber.subscriptionDescription == "Output")
    let oneToFive = (1...5).publisher.eraseToAnyPublisher()
    #expect(oneToFive.prefix(2).collect().sinkValues() == [[1, 2]])
    #expect(oneToFive.output(at: 3).collect().sinkValues() == [[4]])
  }

  @Test("drop(while:) stops asking once a value passes; tryDrop(while:) fails on a throw")
  func dropWhile() {
    var calls = 0
    let values = [1, 2, 5, 1].publisher.eraseToAnyPublisher().drop {
      calls += 1
      return $0 < 3
    }.collect().sinkValues()
    #expect(values == [[5, 1]] && calls == 3)
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, any Error>(history: history)
    upstream.tryDrop {
      if $0 == 2 { throw TestError() }
      return true
    }.subscribe(subscriber)
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(2) == .none)
    #expect(upstream.send(3) == .none)
    #expect(
      history.all == [.subscription, .requested(.unlimited), .cancelled, .failed(TestError())])
    #expect(subscriber.subscriptionDescription == "TryDropWhile")
  }

  @Test("collect(count) multiplies demand and sends the rest at the end; a failure drops it")
  func collectByCount() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<[Int], TestError>(
      onSubscribe: { $0.request(.max(2)) }, onValue: { _ in .max(1) })
    upstream.collect(2).subscribe(subscriber)
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(2) == .max(2))
    #expect(upstream.send(3) == .none)
    upstream.send(completion: .finished)
    #expect(history.all == [.requested(.max(4))])
    #expect(subscriber.events == [.subscription, .value([1, 2]), .value([3]), .finished])
    #expect(subscriber.subscriptionDescription == "CollectByCount")
    let failing = TrackingSubscriber<[Int], TestError>()
    let other = CustomPublisher<Int, TestError>(history: Log())
    other.collect(2).subscribe(failing)
    other.send(1)
    other.send(completion: .failure(TestError()))
    #expect(failing.events == [.subscription, .failed(TestError())])
  }
}

extension Publisher where Failure == Never {
  /// Every value this publisher sends synchronously to an unlimited subscriber.
  func sinkValues() -> [Output] {
    var values: [Output] = []
    _ = sink { values.append($0) }
    return values
  }
}
