import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `Subscribers.Sink` as Combine's.
@Suite("Combine compatibility: Sink")
struct SinkTests {
  @Test(
    "values before subscription are delivered; the first subscription is asked for unlimited, a second cancelled"
  )
  func events() {
    let history = Log<Event<Int>>()
    var received: [String] = []
    let sink = Subscribers.Sink<Int, TestError>(
      receiveCompletion: { received.append("\($0)") }, receiveValue: { received.append("\($0)") })
    #expect(sink.receive(1) == .none)
    sink.receive(subscription: CustomSubscription(history: history))
    sink.receive(subscription: CustomSubscription(history: history))
    #expect(sink.receive(2) == .none)
    sink.receive(completion: .finished)
    sink.receive(completion: .failure(TestError()))
    #expect(sink.receive(3) == .none)
    #expect(received == ["1", "2", "finished"])
    #expect(history.all == [.requested(.unlimited), .cancelled])
    #expect(sink.description == "Sink" && Mirror(reflecting: sink).children.isEmpty)
    #expect(sink.playgroundDescription as? String == "Sink")
  }

  @Test(
    "a cancel before subscription does nothing: the next subscription is taken and the closures kept"
  )
  func cancelBeforeSubscription() {
    let history = Log<Event<Int>>()
    var values: [Int] = []
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in }, receiveValue: { values.append($0) })
    sink.cancel()
    sink.receive(subscription: CustomSubscription(history: history))
    _ = sink.receive(1)
    sink.cancel()
    sink.cancel()
    _ = sink.receive(2)
    #expect(values == [1])
    #expect(history.all == [.requested(.unlimited), .cancelled])
  }

  @Test("completion and cancel release the closures and the subscription")
  func releases() {
    final class Captured {
      let released: Counter
      init(_ released: Counter) { self.released = released }
      deinit { released.increment() }
    }
    let released = Counter()
    var sinks: [Subscribers.Sink<Int, Never>] = []
    for _ in 0..<2 {
      let captured = Captured(released)
      sinks.append(
        Subscribers.Sink(
          receiveCompletion: { _ in _ = captured }, receiveValue: { _ in _ = captured }))
    }
    sinks[0].receive(subscription: CustomSubscription<Int>(history: Log()))
    sinks[1].receive(subscription: CustomSubscription<Int>(history: Log()))
    #expect(released.count == 0)
    sinks[0].receive(completion: .finished)
    #expect(released.count == 1)
    sinks[1].cancel()
    #expect(released.count == 2)
  }
}
