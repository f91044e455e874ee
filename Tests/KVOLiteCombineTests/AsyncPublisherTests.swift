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

/// Several tasks awaiting one iterator, as Combine allows.
@Suite("AsyncPublisher: several waiting calls")
struct AsyncPublisherWaitersTests {
  /// An iterator handed to several tasks: what the tests exercise.
  struct Shared<Iterator>: @unchecked Sendable { let iterator: Iterator }

  /// Waits (yielding, never sleeping) until `count` values have been requested.
  static func waitForRequests(_ requests: Locked<Int>, _ count: Int) async {
    while requests.withLock({ $0 }) < count { await Task.yield() }
  }

  @Test("two tasks awaiting next() each ask for one value; a value resumes one, the end the other")
  func twoWaiters() async {
    let subject = PassthroughSubject<Int, Never>()
    let requests = Locked(0)
    let iterator = subject.handleEvents(receiveRequest: { demand in
      requests.withLock { $0 += demand.max ?? 0 }
    }).values.makeAsyncIterator()
    let shared = Shared(iterator: iterator)
    let first = Task {
      var copy = shared.iterator
      return await copy.next()
    }
    let second = Task {
      var copy = shared.iterator
      return await copy.next()
    }
    await Self.waitForRequests(requests, 2)
    subject.send(1)
    subject.send(completion: .finished)
    let results = [await first.value, await second.value]
    #expect(results.compactMap { $0 } == [1] && results.contains(nil))
    var after = iterator
    #expect(await after.next() == nil)
  }

  @Test("cancelling one waiting task ends the sequence for every waiting call")
  func cancelOne() async throws {
    let subject = PassthroughSubject<Int, TestError>()
    let requests = Locked(0)
    let cancels = Locked(0)
    let iterator = subject.handleEvents(
      receiveCancel: { cancels.withLock { $0 += 1 } },
      receiveRequest: { demand in requests.withLock { $0 += demand.max ?? 0 } }
    ).values.makeAsyncIterator()
    let shared = Shared(iterator: iterator)
    let first = Task {
      var copy = shared.iterator
      return try await copy.next()
    }
    let second = Task {
      var copy = shared.iterator
      return try await copy.next()
    }
    await Self.waitForRequests(requests, 2)
    first.cancel()
    #expect(try await first.value == nil)
    #expect(try await second.value == nil)
    #expect(cancels.withLock { $0 } == 1)
  }

  @Test("a value that no call asked for traps, as in Combine")
  func unrequestedValue() async {
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, Never>(history: Log())
      let iterator = upstream.values.makeAsyncIterator()
      _ = upstream.send(1)
      withExtendedLifetime(iterator) {}
    }
  }
}
