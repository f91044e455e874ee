import Foundation
import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// How an iteration of a publisher's values ends its subscription: when the loop is left (the
/// iterator's last copy going), as Combine's iterator does, and when the awaiting task is
/// cancelled, by the task itself (not from inside `Task.cancel()`).
@Suite("AsyncPublisher and AsyncThrowingPublisher: ending the subscription")
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

  @Test("cancelling the awaiting task cancels upstream from the task, not inside Task.cancel()")
  func cancelledByTheTask() async {
    let subject = PassthroughSubject<Int, Never>()
    let requested = DispatchSemaphore(value: 0)
    let canceller = Locked<pthread_t?>(nil)
    let cancels = Locked<[Bool]>([])
    let values = subject.handleEvents(
      receiveCancel: {
        // Whether upstream is cancelled on the cancelling thread, inside `Task.cancel()`,
        // which holds the task's lock: a cancel that waited for a value on its way, whose
        // delivery resumes the task, would wait for good there.
        let inside = canceller.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } }
        cancels.withLock { $0.append(inside ?? false) }
      },
      receiveRequest: { _ in requested.signal() }
    ).values
    let task = Task.detached {
      for await _ in values {}
    }
    // Cancelled from a thread of its own, once the task awaits its first value.
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Thread.detachNewThread {
        requested.wait()
        canceller.withLock { $0 = pthread_self() }
        task.cancel()
        canceller.withLock { $0 = nil }
        done.resume()
      }
    }
    await task.value
    #expect(cancels.withLock { $0 } == [false])
  }
}
