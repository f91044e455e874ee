import KVOLiteCombine
import KVOLiteTestSupport
import Testing

@Suite("Operators: map, filter, compactMap, removeDuplicates, dropFirst")
struct OperatorTests {
  @Test("map transforms values and passes demand and completion straight through")
  func map() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<String, TestError>(
      onSubscribe: { $0.request(.max(2)) }, onValue: { _ in .max(1) })
    upstream.map { "#\($0)" }.subscribe(subscriber)
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(2) == .max(1))
    upstream.send(completion: .finished)
    #expect(history.all == [.requested(.max(2))])
    #expect(subscriber.events == [.subscription, .value("#1"), .value("#2"), .finished])
  }

  @Test("filter replaces each dropped value by a request for one more")
  func filter() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { $0.request(.max(1)) })
    upstream.filter { $0.isMultiple(of: 2) }.subscribe(subscriber)
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(2) == .none)
    upstream.send(completion: .failure(TestError()))
    #expect(history.all == [.requested(.max(1))])
    #expect(subscriber.events == [.subscription, .value(2), .failed(TestError())])
  }

  @Test("compactMap drops nil results the same way")
  func compactMap() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>()
    upstream.compactMap { $0 > 1 ? $0 * 10 : nil }.subscribe(subscriber)
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(2) == .none)
    #expect(subscriber.events == [.subscription, .value(20)])
    #expect(history.all == [.requested(.unlimited)])
  }

  @Test("removeDuplicates drops values equal to the previous one")
  func removeDuplicates() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>()
    upstream.removeDuplicates().subscribe(subscriber)
    let answers = [1, 1, 2, 2, 1].map { upstream.send($0) }
    #expect(answers == [.none, .max(1), .none, .max(1), .none])
    #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(1)])
  }

  @Test("removeDuplicates(by:) uses the predicate")
  func removeDuplicatesBy() {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = TrackingSubscriber<Int, Never>()
    subject.removeDuplicates { $0 / 10 == $1 / 10 }.subscribe(subscriber)
    for value in [1, 5, 12, 19, 3] { subject.send(value) }
    #expect(subscriber.events == [.subscription, .value(1), .value(12), .value(3)])
  }

  @Test("dropFirst asks upstream for the dropped values on the first request only")
  func dropFirst() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { $0.request(.max(1)) })
    upstream.dropFirst(2).subscribe(subscriber)
    subscriber.subscription?.request(.max(1))
    #expect(upstream.send(1) == .none)
    #expect(upstream.send(2) == .none)
    #expect(upstream.send(3) == .none)
    upstream.send(completion: .finished)
    #expect(history.all == [.requested(.max(3)), .requested(.max(1))])
    #expect(subscriber.events == [.subscription, .value(3), .finished])
  }

  @Test("cancelling an operator's subscription cancels upstream, once; nothing arrives after")
  func cancel() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>()
    upstream.map { $0 }.dropFirst(0).removeDuplicates().subscribe(subscriber)
    subscriber.subscription?.cancel()
    subscriber.subscription?.cancel()
    #expect(upstream.send(1) == .none)
    upstream.send(completion: .finished)
    #expect(history.all == [.requested(.unlimited), .cancelled])
    #expect(subscriber.events == [.subscription])
  }
}
