import Foundation
import KVOLiteCombine
import KVOLiteCombineFoundation
import KVOLiteTestSupport
import Testing

/// Events that a misbehaving upstream sends before its subscription: each operator forwards,
/// ignores or traps on them as Combine's does (OpenCombine's compatibility tests record it).
@Suite("Combine compatibility: events before upstream's subscription")
struct BeforeSubscriptionTests {
  /// `make(upstream)` subscribed by a tracking subscriber that answers each value with
  /// `.max(42)`; upstream has not sent its subscription.
  static func attach<P: Publisher>(
    _ make: (CustomPublisher<Int, Never>) -> P
  ) -> (upstream: CustomPublisher<Int, Never>, subscriber: TrackingSubscriber<P.Output, P.Failure>)
  where P.Output: Equatable & Sendable {
    let upstream = CustomPublisher<Int, Never>(history: Log(), subscribesAtOnce: false)
    let subscriber = TrackingSubscriber<P.Output, P.Failure>(onValue: { _ in .max(42) })
    make(upstream).subscribe(subscriber)
    return (upstream, subscriber)
  }

  @Test("tryMap hands on a value, ignores a completion, and takes a request or cancel quietly")
  func tryMap() {
    let (upstream, subscriber) = Self.attach { $0.tryMap { $0 * 2 } }
    #expect(upstream.send(3) == .max(42))
    upstream.send(completion: .finished)
    #expect(subscriber.events == [.value(6)])

    let (late, lateSubscriber) = Self.attach { $0.tryMap { $0 } }
    let inner = late.subscriberAsSubscription
    inner?.request(.max(1))
    inner?.cancel()
    late.sendSubscription()
    // The cancel came before the subscription: the subscription is taken (and asked for what
    // the subscriber asks for), not cancelled.
    #expect(late.history.all == [.requested(.unlimited)])
    #expect(lateSubscriber.events == [.subscription])
  }

  /// `make(upstream)` cancelled through the object it subscribed upstream with, before
  /// upstream's subscription; then the subscription comes. What it was asked for, and what the
  /// subscriber saw.
  static func cancelledBeforeSubscription<P: Publisher>(
    _ make: (CustomPublisher<Int, Never>) -> P
  ) -> (upstream: [Event<Int>], subscriber: [Event<P.Output>])
  where P.Output: Equatable & Sendable {
    let (upstream, subscriber) = attach(make)
    #expect(upstream.subscriberAsSubscription != nil)
    upstream.subscriberAsSubscription?.cancel()
    upstream.sendSubscription()
    return (upstream.history.all, subscriber.events)
  }

  @Test(
    "drop(while:), tryDrop(while:), replaceError and replaceEmpty: a cancel before the subscription does nothing; the subscription is taken"
  )
  func cancelBeforeSubscriptionIsIgnored() {
    let dropWhile = Self.cancelledBeforeSubscription { $0.drop { $0 < 3 } }
    #expect(dropWhile.upstream == [.requested(.unlimited)])
    #expect(dropWhile.subscriber == [.subscription])
    let tryDropWhile = Self.cancelledBeforeSubscription { $0.tryDrop { $0 < 3 } }
    #expect(tryDropWhile.upstream == [.requested(.unlimited)])
    #expect(tryDropWhile.subscriber == [.subscription])
    let failing = CustomPublisher<Int, TestError>(history: Log(), subscribesAtOnce: false)
    let replaceError = TrackingSubscriber<Int, Never>()
    failing.replaceError(with: 0).subscribe(replaceError)
    #expect(failing.subscriberAsSubscription != nil)
    failing.subscriberAsSubscription?.cancel()
    failing.sendSubscription()
    #expect(failing.history.all == [.requested(.unlimited)])
    #expect(replaceError.events == [.subscription])
    let replaceEmpty = Self.cancelledBeforeSubscription { $0.replaceEmpty(with: 0) }
    #expect(replaceEmpty.upstream == [.requested(.unlimited), .requested(.unlimited)])
    #expect(replaceEmpty.subscriber == [.subscription])
    // The subscription taken after such a cancel is cancelled by the next one.
    let (upstream, subscriber) = Self.attach { $0.drop { $0 < 3 } }
    upstream.subscriberAsSubscription?.cancel()
    upstream.sendSubscription()
    subscriber.subscription?.cancel()
    #expect(upstream.history.all == [.requested(.unlimited), .cancelled])
  }

  @Test("encode and decode hand on a value and a completion")
  func coding() throws {
    let (upstream, subscriber) = Self.attach { $0.encode(encoder: JSONEncoder()) }
    #expect(upstream.send(7) == .max(42))
    upstream.send(completion: .finished)
    upstream.send(completion: .finished)
    #expect(subscriber.events == [.value(Data("7".utf8)), .finished])

    let (decodingUpstream, decoding) = Self.attach {
      $0.map { Data("\($0)".utf8) }.decode(type: Int.self, decoder: JSONDecoder())
    }
    #expect(decodingUpstream.send(8) == .max(42))
    #expect(decoding.events == [.value(8)])
    let (failingUpstream, failing) = Self.attach {
      $0.map { _ in Data("{".utf8) }.decode(type: Int.self, decoder: JSONDecoder())
    }
    #expect(failingUpstream.send(8) == .none)
    #expect(failing.events.count == 1)
    #expect(failing.events.first.map { if case .failed = $0 { true } else { false } } == true)
  }

  @Test("catch and tryCatch ignore a .finished that comes before the subscription")
  func catchFinished() {
    let (upstream, subscriber) = Self.attach {
      $0.setFailureType(to: TestError.self).catch { _ in Just(0) }
    }
    upstream.send(completion: .finished)
    #expect(subscriber.events == [])
    let (tryUpstream, trySubscriber) = Self.attach {
      $0.setFailureType(to: TestError.self).tryCatch { _ in Just(0) }
    }
    tryUpstream.send(completion: .finished)
    #expect(trySubscriber.events == [])
  }

  @Test("catch traps on a value nobody asked for, and on a failure before the subscription")
  func catchTraps() async {
    await #expect(processExitsWith: .failure) {
      let (upstream, _) = Self.attach {
        $0.setFailureType(to: TestError.self).catch { _ in Just(0) }
      }
      _ = upstream.send(1)
    }
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, TestError>(history: Log(), subscribesAtOnce: false)
      upstream.catch { _ in Just(0) }.subscribe(TrackingSubscriber<Int, Never>())
      upstream.send(completion: .failure(TestError()))
    }
    await #expect(processExitsWith: .failure) {
      let upstream = CustomPublisher<Int, TestError>(history: Log())
      upstream.tryCatch { _ in Empty<Int, TestError>(completeImmediately: false) }
        .subscribe(TrackingSubscriber<Int, any Error>())
      upstream.send(completion: .failure(TestError("first")))
      upstream.send(completion: .failure(TestError("second")))
    }
  }
}
