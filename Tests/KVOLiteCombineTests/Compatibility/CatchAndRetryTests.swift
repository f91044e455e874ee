import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `catch`, `tryCatch` and `retry`.
@Suite("Combine compatibility: catch, tryCatch, retry")
struct CatchAndRetryTests {
  @Test("catch passes values until upstream fails, then asks the replacement for the demand left")
  func catchReplaces() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let replacement = CustomPublisher<Int, Never>(history: history)
    let subscriber = TrackingSubscriber<Int, Never>(
      history: history, onSubscribe: { $0.request(.max(3)) })
    upstream.catch { _ in replacement }.subscribe(subscriber)
    #expect(subscriber.subscriptionDescription == "Catch")
    #expect(upstream.send(1) == .none)
    upstream.send(completion: .failure(TestError()))
    #expect(replacement.send(2) == .none)
    replacement.send(completion: .finished)
    #expect(
      history.all == [
        .subscription, .requested(.max(3)), .value(1), .requested(.max(2)), .value(2), .finished,
      ])
  }

  @Test("catch: upstream finishing finishes; cancel reaches the current subscription")
  func catchFinishesAndCancels() {
    #expect(
      [1, 2].publisher.setFailureType(to: TestError.self).catch { _ in Just(0) }.collect()
        .sinkValues() == [[1, 2]])
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let replacement = CustomPublisher<Int, Never>(history: history)
    let subscriber = TrackingSubscriber<Int, Never>(history: history)
    upstream.catch { _ in replacement }.subscribe(subscriber)
    upstream.send(completion: .failure(TestError()))
    subscriber.subscription?.cancel()
    #expect(
      history.all == [.subscription, .requested(.unlimited), .requested(.unlimited), .cancelled])
  }

  @Test(
    "tryCatch: a throwing handler fails with its error; the replacement's failure passes as any Error"
  )
  func tryCatch() {
    let subscriber = TrackingSubscriber<Int, any Error>()
    Fail<Int, TestError>(error: TestError("first")).tryCatch { error -> Just<Int> in
      throw TestError("handler saw \(error)")
    }
    .subscribe(subscriber)
    #expect(subscriber.events == [.subscription, .failed(TestError("handler saw first"))])
    #expect(subscriber.subscriptionDescription == "TryCatch")
    let replaced = TrackingSubscriber<Int, any Error>()
    Fail<Int, TestError>(error: TestError()).tryCatch { _ in
      Fail<Int, TestError>(error: TestError("second"))
    }
    .subscribe(replaced)
    #expect(replaced.events == [.subscription, .failed(TestError("second"))])
  }

  @Test(
    "retry subscribes again after each failure, with the demand left, and passes the last failure on"
  )
  func retry() {
    var attempts = 0
    let subscriber = TrackingSubscriber<Int, TestError>(onSubscribe: { $0.request(.max(5)) })
    Deferred { () -> AnyPublisher<Int, TestError> in
      attempts += 1
      return [attempts].publisher.setFailureType(to: TestError.self)
        .append(Fail(error: TestError("attempt \(attempts)"))).eraseToAnyPublisher()
    }.retry(2).subscribe(subscriber)
    #expect(attempts == 3)
    #expect(
      subscriber.events == [
        .subscription, .value(1), .value(2), .value(3), .failed(TestError("attempt 3")),
      ])
    #expect(subscriber.subscriptionDescription == "Retry")
    let succeeding = TrackingSubscriber<Int, TestError>()
    Just(1).setFailureType(to: TestError.self).retry(3).subscribe(succeeding)
    #expect(succeeding.events == [.subscription, .value(1), .finished])
  }
}
