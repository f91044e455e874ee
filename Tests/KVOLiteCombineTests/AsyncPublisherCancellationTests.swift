import Foundation
import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// A publisher whose subscription, asked for a value, first cancels the task that asks (whose
/// cancellation handler runs there and then, on this thread), then sends the value it was asked
/// for: a value that arrives after the sequence ended and before the task cancels upstream.
private final class CancelThenSend: Publisher, Subscription, @unchecked Sendable {
  typealias Output = Int
  typealias Failure = Never
  let history = Log<Event<Int>>()
  private let sender = Locked<((Int) -> Subscribers.Demand)?>(nil)

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    sender.withLock { $0 = subscriber.receive }
    subscriber.receive(subscription: self)
  }

  func request(_ demand: Subscribers.Demand) {
    history.append(.requested(demand))
    withUnsafeCurrentTask { $0?.cancel() }
    _ = sender.withLock { $0 }?(1)
  }

  func cancel() {
    history.append(.cancelled)
    sender.withLock { $0 = nil }
  }
}

/// How a cancelled task ends a sequence of a publisher's values, as Combine's does: the
/// sequence ends at once, upstream is cancelled, and nothing more is asked for; a value asked
/// for before is dropped, never trapped on.
@Suite("AsyncPublisher: a cancelled task")
struct AsyncPublisherCancellationTests {
  @Test(
    "a value asked for that arrives after the cancellation handler ended the sequence is dropped")
  func valueAfterTheEnd() async {
    let upstream = CancelThenSend()
    let values = upstream.values
    let result = await Task {
      var iterator = values.makeAsyncIterator()
      let first = await iterator.next()
      let second = await iterator.next()
      return [first, second]
    }.value
    #expect(result == [nil, nil])
    #expect(upstream.history.all == [.requested(.max(1)), .cancelled])
  }

  @Test("a task cancelled before its first next() gets nil, asks for nothing and cancels upstream")
  func cancelledBeforeNext() async throws {
    let upstream = CustomPublisher<Int, TestError>(history: Log())
    let values = upstream.values
    let result = try await Task {
      var iterator = values.makeAsyncIterator()
      withUnsafeCurrentTask { $0?.cancel() }
      return try await iterator.next()
    }.value
    #expect(result == nil)
    #expect(upstream.history.all == [.cancelled])
  }

  @Test(
    "a task cancelled before upstream's subscription arrives: the late subscription is cancelled, and nothing is asked for",
    arguments: [false, true])
  func cancelledBeforeTheSubscription(whileWaiting: Bool) async {
    let upstream = CustomPublisher<Int, Never>(history: Log(), subscribesAtOnce: false)
    let values = upstream.values
    let iterator = AsyncPublisherWaitersTests.Shared(iterator: values.makeAsyncIterator())
    let task = Task {
      var copy = iterator.iterator
      if !whileWaiting { withUnsafeCurrentTask { $0?.cancel() } }
      return await copy.next()
    }
    if whileWaiting { task.cancel() }
    #expect(await task.value == nil)
    upstream.sendSubscription()
    #expect(upstream.history.all == [.cancelled])
    withExtendedLifetime(iterator) {}
  }
}
