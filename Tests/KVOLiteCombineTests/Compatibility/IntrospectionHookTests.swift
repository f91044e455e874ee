import KVOLiteCombine
import KVOLiteTestSupport
import Testing

/// A hook that records what it is told about one subscriber and its subscription.
final class RecordingIntrospection: _Introspection, @unchecked Sendable {
  let watched: CombineIdentifier
  let log = Log<String>()

  init(watching subscriber: some Subscriber) { watched = subscriber.combineIdentifier }

  func willReceive<Upstream: Publisher, Downstream: Subscriber>(
    publisher: Upstream, subscriber: Downstream
  ) where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
    if subscriber.combineIdentifier == watched { log.append("will attach") }
  }
  func didReceive<Upstream: Publisher, Downstream: Subscriber>(
    publisher: Upstream, subscriber: Downstream
  ) where Upstream.Failure == Downstream.Failure, Upstream.Output == Downstream.Input {
    if subscriber.combineIdentifier == watched { log.append("did attach") }
  }
  func willReceive<Downstream: Subscriber>(subscriber: Downstream, input: Downstream.Input) {
    if subscriber.combineIdentifier == watched { log.append("will receive \(input)") }
  }
  func didReceive<Downstream: Subscriber>(
    subscriber: Downstream, input: Downstream.Input, resultingDemand: Subscribers.Demand
  ) {
    if subscriber.combineIdentifier == watched {
      log.append("did receive \(input) -> \(resultingDemand)")
    }
  }
  func willReceive<Downstream: Subscriber>(
    subscriber: Downstream, completion: Subscribers.Completion<Downstream.Failure>
  ) {
    if subscriber.combineIdentifier == watched { log.append("will complete") }
  }
  func willRequest(subscription: any Subscription, _ demand: Subscribers.Demand) {
    log.append("will request \(demand)")
  }
  func willCancel(subscription: any Subscription) { log.append("will cancel") }
}

/// Combine's `_Introspection` hooks. Each test runs in a process of its own: an enabled hook
/// is process-wide, and would wrap the subscribers of tests running alongside.
@Suite("Combine compatibility: _Introspection")
struct IntrospectionHookTests {
  @Test("an enabled hook sees subscribe(_:), events, requests and cancels; a disabled one not")
  func reports() async {
    await #expect(processExitsWith: .success) {
      let upstream = CustomPublisher<Int, TestError>(history: Log())
      let subscriber = TrackingSubscriber<Int, TestError>(
        onSubscribe: { $0.request(.max(1)) }, onValue: { .max($0) })
      let hook = RecordingIntrospection(watching: subscriber)
      let other = RecordingIntrospection(watching: subscriber)
      precondition(!hook.isEnabled)
      hook.enable()
      precondition(hook.isEnabled && !other.isEnabled)
      upstream.subscribe(subscriber)
      _ = upstream.send(2)
      other.enable()
      upstream.send(completion: .finished)
      hook.disable()
      subscriber.subscription?.cancel()
      other.disable()
      precondition(
        hook.log.all == [
          "will attach", "will request max(1)", "did attach", "will receive 2",
          "did receive 2 -> max(2)", "will complete",
        ], "\(hook.log.all)")
      precondition(other.log.all == ["will complete", "will cancel"], "\(other.log.all)")
      // The taps keep the identifiers and descriptions of what they wrap.
      precondition(!(upstream.subscriber as AnyObject === subscriber))
      precondition(
        (upstream.subscriber as? any CustomCombineIdentifierConvertible)?.combineIdentifier
          == subscriber.combineIdentifier)
      precondition(subscriber.subscriptionDescription == "CustomSubscription")
      precondition(
        subscriber.subscription?.combineIdentifier == upstream.subscription.combineIdentifier)
    }
  }

  @Test("receive(subscriber:) called directly is not reported")
  func directReceive() async {
    await #expect(processExitsWith: .success) {
      let upstream = CustomPublisher<Int, TestError>(history: Log())
      let subscriber = TrackingSubscriber<Int, TestError>()
      let hook = RecordingIntrospection(watching: subscriber)
      hook.enable()
      upstream.receive(subscriber: subscriber)
      hook.disable()
      precondition(hook.log.all == [], "\(hook.log.all)")
      precondition(upstream.subscriber as AnyObject === subscriber)
    }
  }
}
