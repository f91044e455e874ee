import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// `mapError`, `setFailureType`, `assertNoFailure` and `replaceNil`: no subscription of their own.
@Suite("Combine compatibility: mapError, setFailureType, assertNoFailure, replaceNil")
struct ErrorPassThroughTests {
  @Test("mapError transforms only the failure and passes the subscription through")
  func mapError() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(history: history, onValue: { _ in .max(3) })
    upstream.mapError { TestError("mapped \($0)") }.subscribe(subscriber)
    #expect(subscriber.subscription as? CustomSubscription<Int> === upstream.subscription)
    #expect(upstream.send(1) == .max(3))
    upstream.send(completion: .failure(TestError("x")))
    #expect(
      history.all == [
        .subscription, .requested(.unlimited), .value(1), .failed(TestError("mapped x")),
      ])
    #expect(upstream.subscriberDescription == "MapError")
  }

  @Test("setFailureType passes everything through, fuses, and composes with failing publishers")
  func setFailureType() {
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, Never>(history: history)
    let subscriber = TrackingSubscriber<Int, TestError>(history: history)
    let typed: Publishers.SetFailureType<CustomPublisher<Int, Never>, TestError> =
      upstream.setFailureType(to: Error.self).setFailureType(to: TestError.self)
    typed.subscribe(subscriber)
    upstream.send(4)
    upstream.send(completion: .finished)
    #expect(history.all == [.subscription, .requested(.unlimited), .value(4), .finished])
    #expect(upstream.subscriberDescription == "SetFailureType")
  }

  @Test("replaceNil is a map; assertNoFailure passes values and finishing through")
  func replaceNilAndAssert() {
    let subject = PassthroughSubject<Int?, Never>()
    var seen: [Int] = []
    let replaced: Publishers.Map<PassthroughSubject<Int?, Never>, Int> = subject.replaceNil(with: 0)
    let cancellable = replaced.sink { seen.append($0) }
    subject.send(nil)
    subject.send(3)
    #expect(seen == [0, 3])
    let history = Log<Event<Int>>()
    let upstream = CustomPublisher<Int, TestError>(history: history)
    upstream.assertNoFailure().subscribe(TrackingSubscriber<Int, Never>(history: history))
    upstream.send(1)
    upstream.send(completion: .finished)
    #expect(history.all == [.subscription, .requested(.unlimited), .value(1), .finished])
    #expect(upstream.subscriberDescription == "AssertNoFailure")
    _ = cancellable
  }

  @Test("assertNoFailure stops the program with the prefix and the error")
  func assertNoFailureTraps() async throws {
    let result = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let upstream = CustomPublisher<Int, TestError>(history: Log())
      upstream.assertNoFailure("loading").subscribe(TrackingSubscriber<Int, Never>())
      upstream.send(completion: .failure(TestError("disk full")))
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains("loading: disk full"))
  }
}
