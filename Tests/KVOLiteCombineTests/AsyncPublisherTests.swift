import Dispatch
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

@Suite("AsyncPublisher and AsyncThrowingPublisher")
struct AsyncPublisherTests {
  @Test("values of a publisher that can fail: every value, then the end")
  func throwingValues() async throws {
    var received: [Int] = []
    for try await value in [1, 2, 3].publisher.setFailureType(to: TestError.self).values {
      received.append(value)
    }
    #expect(received == [1, 2, 3])
  }

  @Test("the failure is thrown after the values, once; the sequence then ends")
  func throwsFailure() async throws {
    let publisher = [1, 2].publisher.setFailureType(to: TestError.self)
      .append(Fail(error: TestError("late")))
    var iterator = publisher.values.makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    await #expect(throws: TestError("late")) { _ = try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("a completion that arrives while nobody awaits is kept for the next call")
  func pendingCompletion() async {
    var iterator = Just(5).values.makeAsyncIterator()
    #expect(await iterator.next() == 5)
    #expect(await iterator.next() == nil)
    #expect(await iterator.next() == nil)
  }

  @Test("a subscription that arrives after next() started is waited for")
  func lateSubscription() async throws {
    let queue = DispatchQueue(label: "AsyncPublisherTests.lateSubscription")
    var received: [Int] = []
    for await value in [1, 2].publisher.subscribe(on: queue).values {
      received.append(value)
    }
    var throwing: [Int] = []
    for try await value in [3].publisher.setFailureType(to: TestError.self)
      .subscribe(on: queue).values
    {
      throwing.append(value)
    }
    #expect(received == [1, 2] && throwing == [3])
  }

  @Test("cancelling the awaiting task ends the sequence and cancels upstream")
  func cancellation() async {
    let subject = PassthroughSubject<Int, TestError>()
    let cancelled = Locked(false)
    let values = subject.handleEvents(receiveCancel: { cancelled.withLock { $0 = true } }).values
    let task = Task {
      var received: [Int] = []
      do {
        for try await value in values { received.append(value) }
      } catch {
        return [-1]
      }
      return received
    }
    task.cancel()
    #expect(await task.value == [])
    #expect(cancelled.withLock { $0 })
  }
}
