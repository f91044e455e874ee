import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// Cancelling many subscriptions to one subject, in any order. (It was quadratic; the cost is
/// measured by `kvolite-benchmarks`' S row, 100,000 cancels, never by a timed test.)
@Suite("Subjects: cancelling many subscriptions")
struct SubjectCancelScaleTests {
  @Test("cancelled subscribers get nothing and are released; the others keep their order")
  func randomOrder() {
    let subject = PassthroughSubject<Int, Never>()
    let received = Log<Int>()
    let released = Counter()
    var random = SeededGenerator(seed: 8)
    var subscribers = (0..<1_000).map { index in
      TrackingSubscriber<Int, Never>(
        onValue: { _ in
          received.append(index)
          return .none
        }, onDeinit: { released.increment() })
    }
    for subscriber in subscribers { subject.subscribe(subscriber) }
    let cancelled = Set((0..<1_000).shuffled(using: &random).prefix(900))
    for index in cancelled.shuffled(using: &random) { subscribers[index].subscription?.cancel() }
    subject.send(1)
    #expect(received.all == (0..<1_000).filter { !cancelled.contains($0) })
    // Each subscriber keeps its subscription: cancelling must have let go of the subscriber.
    subscribers.removeAll()
    #expect(released.count == 900)
  }
}
