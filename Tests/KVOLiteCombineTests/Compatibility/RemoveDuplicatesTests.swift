import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `removeDuplicates` with Combine's state machine.
@Suite("Combine compatibility: removeDuplicates")
struct RemoveDuplicatesTests {
  @Test("a duplicate asks for one more; the previous value is the last one received")
  func history() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(
      history: history, onSubscribe: { $0.request(.max(2)) }, onValue: { _ in .max(5) })
    var compared: [String] = []
    upstream.removeDuplicates {
      compared.append("\($0)<\($1)")
      return $0 >= $1
    }.subscribe(subscriber)
    #expect(subscriber.subscriptionDescription == "RemoveDuplicates")
    #expect(upstream.send(2) == .max(5))
    #expect(upstream.send(1) == .max(1))
    #expect(upstream.send(3) == .max(5))
    upstream.send(completion: .failure(TestError()))
    upstream.send(completion: .finished)
    #expect(upstream.send(9) == .none)
    subscriber.subscription?.request(.max(1))
    #expect(
      history.all == [
        .subscription, .requested(.max(2)), .value(2), .value(3), .failed(TestError()),
      ])
    #expect(compared == ["2<1", "1<3"])
  }

  @Test("after cancel, values and completions are ignored and upstream is not asked")
  func cancelled() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(history: history)
    upstream.removeDuplicates().subscribe(subscriber)
    #expect(upstream.send(1) == .none)
    let mirror = Mirror(reflecting: subscriber.subscription!).children.map {
      "\($0.label!)=\($0.value)"
    }
    #expect(mirror.count == 2 && mirror[1] == "last=Optional(1)")
    subscriber.subscription?.cancel()
    subscriber.subscription?.cancel()
    #expect(upstream.send(2) == .none)
    upstream.send(completion: .finished)
    subscriber.subscription?.request(.max(1))
    #expect(history.all == [.subscription, .requested(.unlimited), .value(1), .cancelled])
  }

  @Test("a value, completion or request before subscription traps")
  func traps() async {
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, Never>(history: Log(), subscribesAtOnce: false)
      upstream.removeDuplicates().subscribe(TrackingSubscriber<Int, Never>())
      upstream.send(1)
    }
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, Never>(history: Log(), subscribesAtOnce: false)
      upstream.removeDuplicates().subscribe(TrackingSubscriber<Int, Never>())
      upstream.send(completion: .finished)
    }
  }
}
