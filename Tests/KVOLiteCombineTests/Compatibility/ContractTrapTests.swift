import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// Where Combine traps on a broken contract (a value nobody asked for, a call back in at the
/// wrong moment), KVOLite traps too (OpenCombine's compatibility tests record each).
@Suite("Combine compatibility: traps on broken contracts")
struct ContractTrapTests {
  @Test("replaceError traps on a value nobody asked for")
  func replaceErrorUnrequested() async {
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, TestError>(history: Log())
      upstream.replaceError(with: 0).subscribe(
        TrackingSubscriber<Int, Never>(onSubscribe: { _ in }))
      _ = upstream.send(1)
    }
  }

  @Test("subscribe(on:) traps on a request made from inside the request it passes upstream")
  func subscribeOnRecursiveRequest() async {
    await #expect(processExitsWith: .failure) {
      var subscription: (any Subscription)?
      var depth = 0
      let upstream = AnyPublisher<Int, Never>(
        Deferred {
          Empty<Int, Never>(completeImmediately: false).handleEvents(receiveRequest: { _ in
            depth += 1
            if depth < 5 { subscription?.request(.unlimited) }
          })
        })
      upstream.subscribe(on: ImmediateScheduler.shared).subscribe(
        TrackingSubscriber<Int, Never>(onSubscribe: { subscription = $0 }))
      subscription?.request(.max(1))
    }
  }

  @Test("flatMap traps on upstream's completion sent while it cancels its publishers")
  func flatMapFailureDuringCancellation() async {
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, TestError>(history: Log())
      let childHistory = Log<Event<Int>>()
      let child = Empty<Int, TestError>(completeImmediately: false).handleEvents(receiveCancel: {
        childHistory.append(.cancelled)
        upstream.send(completion: .failure(TestError("again")))
      })
      upstream.flatMap { _ in child }.subscribe(TrackingSubscriber<Int, TestError>())
      _ = upstream.send(0)
      upstream.send(completion: .failure(TestError()))
    }
  }

  @Test("a cancel from inside subscribe(on:)'s cancel is fine, as in Combine")
  func subscribeOnRecursiveCancel() {
    var subscription: (any Subscription)?
    let history = Log<Event<Int>>()
    let upstream = Empty<Int, Never>(completeImmediately: false).handleEvents(receiveCancel: {
      history.append(.cancelled)
      subscription?.cancel()
    })
    upstream.subscribe(on: ImmediateScheduler.shared).subscribe(
      TrackingSubscriber<Int, Never>(onSubscribe: { subscription = $0 }))
    subscription?.cancel()
    #expect(history.all == [.cancelled])
  }

  @Test("buffer traps on a value sent from inside its customError closure")
  func bufferValueFromMakeError() async {
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, TestError>(history: Log())
      var sending = false
      upstream.buffer(
        size: 0, prefetch: .keepFull,
        whenFull: .customError {
          if !sending {
            sending = true
            _ = upstream.send(1_000)
          }
          return TestError()
        }
      ).subscribe(TrackingSubscriber<Int, TestError>(onSubscribe: { $0.request(.max(2)) }))
      _ = upstream.send(0)
    }
  }

  @Test("catch traps on a second failure from upstream, and on one sent from its handler")
  func catchSecondFailure() async {
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, TestError>(history: Log())
      let replacement = CustomPublisher<Int, TestError>(history: Log(), subscribesAtOnce: false)
      upstream.catch { _ in replacement }.subscribe(TrackingSubscriber<Int, TestError>())
      upstream.send(completion: .failure(TestError()))
      upstream.send(completion: .failure(TestError()))
    }
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, TestError>(history: Log())
      upstream.catch { _ -> Just<Int> in
        upstream.send(completion: .failure(TestError()))
        return Just(13)
      }.subscribe(TrackingSubscriber<Int, Never>())
      upstream.send(completion: .failure(TestError()))
    }
  }
}
