import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// What leaving a `for await` loop over a publisher's values does: the iterator's last copy
/// goes, and the subscription is cancelled, as Combine's iterator cancels it.
@Suite("AsyncPublisher and AsyncThrowingPublisher: leaving the loop")
struct AsyncPublisherLifetimeTests {
  @Test("leaving the loop cancels the subscription, once the iterator's last copy goes")
  func leavingCancels() async {
    let subject = PassthroughSubject<Int, Never>()
    let cancels = Counter()
    let values = subject.handleEvents(receiveCancel: { cancels.increment() }).values
    var iterator:
      AsyncPublisher<Publishers.HandleEvents<PassthroughSubject<Int, Never>>>
        .Iterator? = values.makeAsyncIterator()
    let copy = iterator
    iterator = nil
    #expect(cancels.count == 0)
    withExtendedLifetime(copy) {}
    _ = consume copy
    #expect(cancels.count == 1)
  }

  @Test("leaving a throwing loop with break cancels the subscription")
  func breakCancels() async throws {
    let subject = CurrentValueSubject<Int, TestError>(1)
    let cancels = Counter()
    let values = subject.handleEvents(receiveCancel: { cancels.increment() }).values
    for try await value in values where value == 1 { break }
    #expect(cancels.count == 1)
  }
}
