import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// Cancelling many subscriptions to one subject, in any order (issue 31, item 8: it was
/// quadratic).
@Suite("Subjects: cancelling many subscriptions")
struct SubjectCancelScaleTests {
  /// Subscribes `count` sinks to a subject, then cancels them in a random (seeded) order;
  /// returns the time the cancels took.
  static func cancelAll(_ count: Int) -> Duration {
    let subject = PassthroughSubject<Int, Never>()
    var random = SeededGenerator(seed: 318)
    let cancellables = (0..<count).map { _ in subject.sink { _ in } }.shuffled(using: &random)
    let clock = ContinuousClock()
    return clock.measure {
      for cancellable in cancellables { cancellable.cancel() }
    }
  }

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

  @Test("cancelling 8 times as many subscriptions in random order takes about 8 times as long")
  func linear() {
    _ = Self.cancelAll(1_000)  // warm up
    // The fastest of three runs of each size, interleaved, so that a busy machine (tests run
    // in parallel) slows neither size alone.
    var small = Duration.seconds(1_000)
    var large = Duration.seconds(1_000)
    for _ in 0..<3 {
      small = min(small, Self.cancelAll(5_000))
      large = min(large, Self.cancelAll(40_000))
    }
    // Linear: about 8; quadratic (each cancel searched the list and shifted it): about 64.
    #expect(large / small < 24, "5,000 took \(small), 40,000 took \(large)")
  }
}
