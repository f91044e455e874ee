import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `map`, `filter` and `compactMap`: no subscription of their own, as in Combine.
@Suite("Combine compatibility: map, filter, compactMap pass upstream's subscription through")
struct PassThroughOperatorTests {
  @Test("downstream gets upstream's own subscription; requests and cancel reach it unchanged")
  func subscriptionPassesThrough() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<String, TestError>(onSubscribe: { $0.request(.max(3)) })
    upstream.map { "\($0)" }.subscribe(subscriber)
    #expect(subscriber.subscription as? CustomSubscription<Int> === upstream.subscription)
    subscriber.subscription?.request(.max(2))
    subscriber.subscription?.cancel()
    #expect(subscriber.events == [.subscription])
    #expect(history.all == [.requested(.max(3)), .requested(.max(2)), .cancelled])
    #expect(upstream.subscriberDescription == "Map" && upstream.subscriberMirror.isEmpty)
  }

  @Test(
    "values and completions before subscription and after cancel pass through; demand is downstream's"
  )
  func eventsAtAnyTime() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history, subscribesAtOnce: false)
    let subscriber = TrackingSubscriber<Int, TestError>(history: history, onValue: { .max($0) })
    upstream.filter { $0 != 5 }.subscribe(subscriber)
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(5) == .max(1))
    upstream.sendSubscription()
    subscriber.subscription?.cancel()
    #expect(upstream.send(3) == .max(3))
    upstream.send(completion: .finished)
    upstream.send(completion: .failure(TestError()))
    #expect(
      history.all == [
        .value(1), .subscription, .requested(.unlimited), .cancelled, .value(3), .finished,
        .failed(TestError()),
      ])
    #expect(upstream.subscriberDescription == "Filter")
  }

  @Test("compactMap: nil asks for one more, a value returns downstream's demand")
  func compactMap() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<String, TestError>(history: Log())
    let subscriber = TrackingSubscriber<Int, TestError>(history: history, onValue: { _ in .max(2) })
    upstream.compactMap(Int.init).subscribe(subscriber)
    #expect(upstream.send("x") == .max(1))
    #expect(upstream.send("7") == .max(2))
    #expect(history.all == [.subscription, .value(7)])
    #expect(upstream.subscriberDescription == "CompactMap")
  }

  @Test("fusion: map.map, filter.filter, compactMap.compactMap and compactMap.map are one operator")
  func fusion() {
    let subject = PassthroughSubject<Int, Never>()
    var seen: [String] = []
    let maps: Publishers.Map<PassthroughSubject<Int, Never>, String> = subject.map { $0 + 1 }.map {
      "m\($0)"
    }
    var secondPredicateCalls = 0
    let filters: Publishers.Filter<PassthroughSubject<Int, Never>> = subject.filter { $0 > 1 }
      .filter {
        secondPredicateCalls += 1
        return $0 < 4
      }
    let compacts: Publishers.CompactMap<PassthroughSubject<Int, Never>, String> =
      subject.compactMap { $0 > 2 ? $0 : nil }.compactMap { $0 < 4 ? "c\($0)" : nil }
    let compactMapped: Publishers.CompactMap<PassthroughSubject<Int, Never>, String> =
      subject.compactMap { $0 == 1 ? $0 : nil }.map { "cm\($0)" }
    let cancellables = [
      maps.sink { seen.append($0) }, filters.sink { seen.append("f\($0)") },
      compacts.sink { seen.append($0) },
      compactMapped.sink { seen.append($0) },
    ]
    for value in 1...4 { subject.send(value) }
    #expect(seen == ["m2", "cm1", "m3", "f2", "m4", "f3", "c3", "m5"])
    #expect(secondPredicateCalls == 3)
    _ = cancellables
  }

  @Test("the subscriber is released when a subject completes, even if it keeps its subscription")
  func lifecycle() {
    let released = Counter()
    let subject = PassthroughSubject<Int, TestError>()
    do {
      let map = TrackingSubscriber<Int, TestError>(onDeinit: released.increment)
      let filter = TrackingSubscriber<Int, TestError>(onDeinit: released.increment)
      let compact = TrackingSubscriber<Int, TestError>(onDeinit: released.increment)
      subject.map { $0 * 2 }.subscribe(map)
      subject.filter { _ in true }.subscribe(filter)
      subject.compactMap { $0 }.subscribe(compact)
      subject.send(31)
      #expect(map.events == [.subscription, .value(62)])
    }
    #expect(released.count == 0)
    subject.send(completion: .failure(TestError()))
    #expect(released.count == 3)
  }
}
