import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// A subscriber that asks for one value at a time, when told to, and records what it gets.
private final class OneAtATime<Input>: Subscriber, @unchecked Sendable {
  // @unchecked: used on the test's thread only.
  private(set) var subscription: (any Subscription)?
  private(set) var received: [Input] = []

  func receive(subscription: any Subscription) { self.subscription = subscription }
  func receive(_ input: Input) -> Subscribers.Demand {
    received.append(input)
    return .none
  }
  func receive(completion: Subscribers.Completion<Never>) {}
}

/// `buffer` keeps its values in a queue: dropping the oldest value of a full buffer, or
/// delivering one value to a subscriber that asks for one at a time, must not move the rest
/// (it did: an array's `removeFirst`, so draining a full buffer took time growing with the
/// square of its size; the first test took 1.0 s in a debug build, 0.3 s with the queue). No
/// test is timed.
@Suite("buffer: large buffers")
struct BufferScaleTests {
  @Test("150,000 values into a buffer of 100,000 dropping the oldest, then asked for one by one")
  func dropOldestThenOneByOne() {
    let subject = PassthroughSubject<Int, Never>()
    let subscriber = OneAtATime<Int>()
    subject.buffer(size: 100_000, prefetch: .byRequest, whenFull: .dropOldest)
      .subscribe(subscriber)
    for value in 0..<150_000 { subject.send(value) }
    #expect(subscriber.received.isEmpty)
    for _ in 0..<100_000 { subscriber.subscription?.request(.max(1)) }
    #expect(subscriber.received == Array(50_000..<150_000))
    // Empty now: the next value goes straight through once asked for.
    subject.send(150_000)
    subscriber.subscription?.request(.max(1))
    #expect(subscriber.received.last == 150_000 && subscriber.received.count == 100_001)
    subscriber.subscription?.cancel()
  }

  @Test("a value dropped as the oldest is let go of at once; delivered ones once delivered")
  func droppedValuesAreReleased() {
    let released = Counter()
    let subject = PassthroughSubject<Address, Never>()
    let subscriber = OneAtATime<Address>()
    subject.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(subscriber)
    for number in 0..<3 { subject.send(Address(street: "\(number)", onDeinit: released.increment)) }
    #expect(released.count == 1)  // 0, dropped for 2.
    subscriber.subscription?.request(.max(1))
    #expect(subscriber.received.map(\.street) == ["1"])
    subscriber.subscription?.cancel()
    #expect(released.count == 2)  // 2, let go of by cancel; 1 is the subscriber's.
  }
}
