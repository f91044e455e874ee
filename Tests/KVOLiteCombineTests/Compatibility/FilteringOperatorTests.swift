import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// The operators with a filtering subscription of their own: `try` forms and `prefix(while:)`.
@Suite(
  "Combine compatibility: tryMap, tryFilter, tryCompactMap, tryRemoveDuplicates, prefix(while:)")
struct FilteringOperatorTests {
  /// Sends `values` through `make(upstream)` to a subscriber asking for `.max(2)` and one more per
  /// value; returns the whole history (subscriber and upstream events) and the demands returned.
  static func run<P: Publisher>(
    _ values: [Int], _ make: (CustomPublisher<Int, TestError>) -> P
  ) -> (history: [Event<Int>], demands: [Subscribers.Demand], description: String?)
  where P.Output == Int {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, P.Failure>(
      history: history, onSubscribe: { $0.request(.max(2)) }, onValue: { _ in .max(1) })
    make(upstream).subscribe(subscriber)
    let demands = values.map { upstream.send($0) }
    upstream.send(completion: .finished)
    return (history.all, demands, subscriber.subscriptionDescription)
  }

  struct Odd: Error {}

  @Test(
    "tryMap: values transformed; a throw cancels upstream and fails; as in Combine, a value sent after that is still handed on"
  )
  func tryMap() {
    let run = Self.run([1, 2, 3]) {
      $0.tryMap { value -> Int in
        if value == 2 { throw TestError("two") }
        return value * 10
      }
    }
    #expect(
      run.history == [
        .subscription, .requested(.max(2)), .value(10), .cancelled, .failed(TestError("two")),
        .value(30),
      ])
    #expect(run.demands == [.max(1), .none, .max(1)])
    #expect(run.description == "TryMap")
  }

  @Test("tryFilter: a dropped value asks for one more; a throw fails")
  func tryFilter() {
    let run = Self.run([1, 2, 3]) {
      $0.tryFilter { value in
        if value == 3 { throw TestError() }
        return value == 2
      }
    }
    #expect(
      run.history == [
        .subscription, .requested(.max(2)), .value(2), .cancelled, .failed(TestError()),
      ])
    #expect(run.demands == [.max(1), .max(1), .none])
    #expect(run.description == "TryFilter")
  }

  @Test("tryCompactMap: nil asks for one more; upstream's own failure passes as any Error")
  func tryCompactMap() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, any Error>(history: history)
    upstream.tryCompactMap { $0 > 1 ? $0 : nil }.subscribe(subscriber)
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(2) == .none)
    upstream.send(completion: .failure(TestError("upstream")))
    #expect(
      history.all == [
        .subscription, .requested(.unlimited), .value(2), .failed(TestError("upstream")),
      ])
    #expect(subscriber.subscriptionDescription == "TryCompactMap")
  }

  @Test("tryRemoveDuplicates: the predicate sees the previous value; a throw fails")
  func tryRemoveDuplicates() {
    let run = Self.run([1, 1, 2, 9]) {
      $0.tryRemoveDuplicates { old, new in
        if new == 9 { throw TestError() }
        return old == new
      }
    }
    #expect(
      run.history == [
        .subscription, .requested(.max(2)), .value(1), .value(2), .cancelled, .failed(TestError()),
      ])
    #expect(run.demands == [.max(1), .max(1), .max(1), .none])
    #expect(run.description == "TryRemoveDuplicates")
  }

  @Test("prefix(while:) finishes at the first rejected value; tryPrefix(while:) fails on a throw")
  func prefixWhile() {
    let run = Self.run([1, 2, 5, 3]) { $0.prefix { $0 < 3 } }
    #expect(
      run.history == [
        .subscription, .requested(.max(2)), .value(1), .value(2), .cancelled, .finished,
      ])
    #expect(run.demands == [.max(1), .max(1), .none, .none])
    #expect(run.description == "PrefixWhile")
    let throwing = Self.run([1, 4]) {
      $0.tryPrefix { value in
        if value == 4 { throw TestError() }
        return true
      }
    }
    #expect(
      throwing.history == [
        .subscription, .requested(.max(2)), .value(1), .cancelled, .failed(TestError()),
      ])
    #expect(throwing.description == "TryPrefixWhile")
  }

  @Test("fusion: map.tryMap, tryMap.map, filter.tryFilter and tryFilter.filter are one operator")
  func fusion() {
    let subject = PassthroughSubject<Int, Never>()
    let _: Publishers.TryMap<PassthroughSubject<Int, Never>, String> = subject.map { $0 + 1 }.tryMap
    { "\($0)" }
    let _: Publishers.TryMap<PassthroughSubject<Int, Never>, Int> = subject.tryMap { $0 + 1 }.map {
      $0 * 2
    }
    let _: Publishers.TryFilter<PassthroughSubject<Int, Never>> = subject.filter { $0 > 1 }
      .tryFilter { $0 < 5 }
    let _: Publishers.TryFilter<PassthroughSubject<Int, Never>> = subject.tryFilter { $0 > 1 }
      .filter { $0 < 5 }
    var seen: [Int] = []
    let cancellable = subject.tryMap { $0 + 1 }.map { $0 * 2 }.sink(
      receiveCompletion: { _ in }, receiveValue: { seen.append($0) })
    subject.send(1)
    #expect(seen == [4])
    _ = cancellable
  }

  @Test("a value or completion before subscription traps")
  func traps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, Never>(history: Log(), subscribesAtOnce: false)
      upstream.tryFilter { _ in true }.subscribe(TrackingSubscriber<Int, any Error>())
      upstream.send(1)
    }
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, Never>(history: Log(), subscribesAtOnce: false)
      upstream.prefix { _ in true }.subscribe(TrackingSubscriber<Int, Never>())
      upstream.send(completion: .finished)
    }
  }
}
