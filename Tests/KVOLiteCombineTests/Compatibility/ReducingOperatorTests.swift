import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// The operators that publish one result: Combine's reducing state machine.
@Suite("Combine compatibility: count, collect, reduce, first, last, min, max, contains, allSatisfy")
struct ReducingOperatorTests {
  /// Subscribes `make(upstream)` with a subscriber that asks for `demand` at subscription (if
  /// any), sends `values`, then `completion`; returns the whole history and the description.
  static func run<P: Publisher>(
    _ values: [Int], completion: Subscribers.Completion<TestError>? = .finished,
    demand: Subscribers.Demand? = .max(1),
    _ make: (CustomPublisher<Int, TestError>) -> P
  ) -> (history: [Event<P.Output>], description: String?) where P.Output: Equatable & Sendable {
    let upstreamHistory = Log<Event<Int>>()
    let history = Log<Event<P.Output>>()
    let upstream = CustomPublisher<Int, TestError>(history: upstreamHistory)
    let subscriber = TrackingSubscriber<P.Output, P.Failure>(
      history: history, onSubscribe: { subscription in demand.map(subscription.request) })
    make(upstream).subscribe(subscriber)
    for value in values { #expect(upstream.send(value) == .none) }
    if let completion { upstream.send(completion: completion) }
    // Upstream's own events, after the subscriber's, as requested/cancelled markers.
    for event in upstreamHistory.all {
      switch event {
      case .requested(let demand): history.append(.requested(demand))
      case .cancelled: history.append(.cancelled)
      default: break
      }
    }
    return (history.all, subscriber.subscriptionDescription)
  }

  @Test("results when upstream finishes; upstream is asked for unlimited")
  func results() {
    #expect(
      Self.run([1, 2, 3]) { $0.count() } == (
        [.subscription, .value(3), .finished, .requested(.unlimited)], "Count"
      ))
    #expect(
      Self.run([1, 2]) { $0.collect() } == (
        [.subscription, .value([1, 2]), .finished, .requested(.unlimited)], "Collect"
      ))
    #expect(
      Self.run([]) { $0.collect() }.history == [
        .subscription, .value([]), .finished, .requested(.unlimited),
      ])
    #expect(
      Self.run([1, 2, 3]) { $0.reduce(10, +) } == (
        [.subscription, .value(16), .finished, .requested(.unlimited)], "Reduce"
      ))
    #expect(
      Self.run([1, 2, 3]) { $0.last() } == (
        [.subscription, .value(3), .finished, .requested(.unlimited)], "Last"
      ))
    #expect(Self.run([1, 2, 3]) { $0.last { $0 < 3 } }.history.dropFirst().first == .value(2))
    #expect(
      Self.run([3, 1, 2]) { $0.min() } == (
        [.subscription, .value(1), .finished, .requested(.unlimited)], "Comparison"
      ))
    #expect(Self.run([3, 1, 5, 2]) { $0.max() }.history.dropFirst().first == .value(5))
    #expect(
      Self.run([]) { $0.max() }.history == [.subscription, .finished, .requested(.unlimited)])
    #expect(
      Self.run([1, 2]) { $0.contains(7) } == (
        [.subscription, .value(false), .finished, .requested(.unlimited)], "Contains"
      ))
    #expect(
      Self.run([1, 3]) { $0.allSatisfy { $0.isMultiple(of: 2) == false } }.history.dropFirst().first
        == .value(true))
  }

  @Test("a result known early cancels upstream; later values are ignored")
  func early() {
    #expect(
      Self.run([5, 6, 7]) { $0.first() } == (
        [.subscription, .value(5), .finished, .requested(.unlimited), .cancelled], "First"
      ))
    #expect(
      Self.run([1, 6, 7]) { $0.first { $0 > 5 } } == (
        [.subscription, .value(6), .finished, .requested(.unlimited), .cancelled], "TryFirst"
      ))
    #expect(
      Self.run([1, 7, 8]) { $0.contains(7) }.history == [
        .subscription, .value(true), .finished, .requested(.unlimited), .cancelled,
      ])
    #expect(Self.run([1, 7]) { $0.contains { $0 == 7 } }.description == "ContainsWhere")
    #expect(
      Self.run([2, 3, 4]) { $0.allSatisfy { $0.isMultiple(of: 2) } } == (
        [.subscription, .value(false), .finished, .requested(.unlimited), .cancelled], "AllSatisfy"
      ))
  }

  @Test("without demand the result waits for the first request; a failure does not wait")
  func demand() {
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { _ in })
    upstream.count().subscribe(subscriber)
    upstream.send(1)
    upstream.send(completion: .finished)
    #expect(subscriber.events == [.subscription])
    subscriber.subscription?.request(.max(1))
    subscriber.subscription?.request(.max(1))
    #expect(subscriber.events == [.subscription, .value(1), .finished])
    #expect(
      Self.run([1], completion: .failure(TestError()), demand: nil) { $0.count() }.history == [
        .subscription, .failed(TestError()), .requested(.unlimited),
      ])
    #expect(
      Self.run([9], demand: nil) { $0.first() }.history == [
        .subscription, .requested(.unlimited), .cancelled,
      ])
  }

  @Test("try forms fail with the thrown error and cancel upstream")
  func tryForms() {
    func failing(_ value: Int) throws -> Bool {
      if value == 2 { throw TestError("two") }
      return false
    }
    let expected: [Event<Int>] = [
      .subscription, .failed(TestError("two")), .requested(.unlimited), .cancelled,
    ]
    #expect(
      Self.run([1, 2, 3]) { $0.tryReduce(0) { try failing($1) ? $0 : $0 + $1 } } == (
        expected, "TryReduce"
      ))
    #expect(Self.run([1, 2, 3]) { $0.tryFirst(where: failing) } == (expected, "TryFirstWhere"))
    #expect(Self.run([1, 2, 3]) { $0.tryLast(where: failing) } == (expected, "TryLastWhere"))
    #expect(
      Self.run([1, 2, 3]) { $0.tryMax { a, b in try failing(b) || a < b } } == (
        expected, "TryComparison"
      ))
    let boolExpected: [Event<Bool>] = [
      .subscription, .failed(TestError("two")), .requested(.unlimited), .cancelled,
    ]
    #expect(
      Self.run([1, 2, 3]) { $0.tryContains(where: failing) } == (boolExpected, "TryContainsWhere"))
    #expect(
      Self.run([1, 2, 3]) { $0.tryAllSatisfy { try !failing($0) } } == (
        boolExpected, "TryAllSatisfy"
      ))
  }

  @Test("cancel stops the result; the mirror shows downstream, result, initial, status")
  func cancelAndMirror() {
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    let subscriber = TrackingSubscriber<Int, TestError>()
    upstream.reduce(0, +).subscribe(subscriber)
    upstream.send(4)
    let labels = Mirror(reflecting: subscriber.subscription!).children.map(\.label)
    #expect(labels == ["downstream", "result", "initial", "status"])
    subscriber.subscription?.cancel()
    upstream.send(completion: .finished)
    #expect(subscriber.events == [.subscription])
  }
}
