import KVOLiteBridge
import KVOLiteTestSupport
import Testing

/// A cancellation from inside any delivery — a KVOLite handler's or a Combine subscriber's —
/// never waits for a delivery on another thread: that delivery may be waiting for the delivery
/// lock the cancelling thread holds.
@Suite("Cancelling from inside a Combine subscriber")
struct CancellationInsideDeliveryTests {
  @Test(
    "a token invalidated from a subject's subscriber, while its handler on another thread sends to that subject, does not deadlock"
  )
  func tokenFromSubscriber() {
    let person = Person()
    let subject = PassthroughSubject<Int, Never>()
    let handlerRunning = Flag()
    let subscriberRunning = Flag()
    let token = Locked<ObservationToken?>(nil)
    let received = Log<Int>()
    // The handler runs on thread 0 and sends to the subject, whose subscriber thread 1 is in:
    // the send waits for thread 1 to leave the subscriber.
    token.withLock {
      $0 = person.observe(\.age) { _, _ in
        handlerRunning.set()
        subject.send(2)
      }
    }
    let subscriber = subject.sink { value in
      received.append(value)
      guard value == 1 else { return }
      subscriberRunning.set()
      while !handlerRunning.isSet {}
      // Thread 0's delivery of this observation is in flight, and waits for this subscriber.
      token.withLock { $0 }?.invalidate()
    }
    let finished = finishes {
      race(workers: 2) { worker in
        if worker == 0 {
          while !subscriberRunning.isSet {}
          person.age = 1
        } else {
          subject.send(1)
        }
      }
    }
    #expect(finished, "deadlocked")
    guard finished else { return abandon(person, subject, subscriber, token) }
    #expect(received.all == [1, 2])
    person.age = 2
    #expect(received.all == [1, 2])
    _ = subscriber
  }
}
