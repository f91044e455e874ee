import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `print`, as Combine's: the same `write` calls per line, every event printed, and what
/// upstream sends after the end still handed on.
@Suite("Combine compatibility: print")
struct PrintTests {
  /// A stream that records each `write` call.
  final class Writes: TextOutputStream, @unchecked Sendable {
    var calls: [String] = []
    func write(_ string: String) { calls.append(string) }
  }

  @Test("each line is written as Swift.print writes it: separator, line, newline")
  func writeCalls() {
    let writes = Writes()
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    upstream.print(to: writes).subscribe(TrackingSubscriber<Int, TestError>(onSubscribe: { _ in }))
    #expect(upstream.send(1) == .none)
    #expect(
      writes.calls == [
        "", "receive subscription: (CustomSubscription)", "\n",
        "", "receive value: (1)", "\n",
        "", "request max: (0) (synchronous)", "\n",
      ])
  }

  @Test("after the completion and after a cancel, events are printed and handed on")
  func afterTheEnd() {
    let writes = Writes()
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(
      history: history, onSubscribe: { _ in }, onValue: { $0 == 10 ? .unlimited : .max(2) })
    upstream.print("👉", to: writes).subscribe(subscriber)
    #expect(upstream.send(1) == .max(2))
    upstream.send(completion: .finished)
    upstream.send(completion: .failure(TestError("failure")))
    #expect(upstream.send(10) == .unlimited)
    subscriber.subscription?.cancel()
    subscriber.subscription?.request(.max(1))
    #expect(
      history.all == [
        .subscription, .value(1), .finished, .failed(TestError("failure")), .value(10),
      ])
    #expect(
      writes.calls.joined() == """
        👉: receive subscription: (CustomSubscription)
        👉: receive value: (1)
        👉: request max: (2) (synchronous)
        👉: receive finished
        👉: receive error: (failure)
        👉: receive value: (10)
        👉: request unlimited (synchronous)
        👉: receive cancel
        👉: request max: (1)

        """)
  }
}
