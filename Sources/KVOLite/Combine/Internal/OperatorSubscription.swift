/// What every single-upstream operator's subscription does the same way: it is the subscriber
/// of its upstream and the subscription of its downstream, accepts one upstream subscription,
/// passes requests up and completions down once, and cancels upstream once.
///
/// Subclasses add the operator's own handling of values (and, where it differs, of requests).
/// Thread-safe: the status is behind `lock`, and neither upstream nor downstream is called with
/// it held.
@usableFromInline
class OperatorSubscription<Downstream: Subscriber>: Subscription, @unchecked Sendable {
  // @unchecked: `status` is behind `lock`; the rest is immutable.
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline let downstream: Downstream

  @inlinable init(downstream: Downstream) {
    self.downstream = downstream
  }

  /// Whether the upstream subscription is live (not awaited, not ended).
  @inlinable final var isSubscribed: Bool { lock.withLock { status.isSubscribed } }

  /// Takes the upstream subscription (cancelling any second one), then hands `self` to
  /// downstream as its subscription.
  @inlinable final func accept(_ subscription: any Subscription, _ hook: ((any Subscription) -> Void)? = nil) {
    guard lock.withLock({ status.accept(subscription) }) else { return subscription.cancel() }
    hook?(subscription)
    downstream.receive(subscription: self)
  }

  /// Passes a completion down, once, and ends the subscription. Returns whether it did.
  @inlinable @discardableResult
  final func finish(_ completion: Subscribers.Completion<Downstream.Failure>) -> Bool {
    let wasSubscribed = lock.withLock {
      defer { status = .terminal }
      return status.isSubscribed
    }
    if wasSubscribed { downstream.receive(completion: completion) }
    return wasSubscribed
  }

  /// Passes a request up.
  @inlinable func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  /// Cancels: ends the subscription and cancels upstream, once.
  @inlinable func cancel() { end() }

  /// Ends the subscription and cancels upstream, once. Returns whether it did.
  @inlinable @discardableResult
  final func end() -> Bool {
    let subscription = lock.withLock {
      defer { status = .terminal }
      return status.subscription
    }
    subscription?.cancel()
    return subscription != nil
  }
}
