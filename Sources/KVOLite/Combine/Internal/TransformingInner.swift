/// The subscription of the operators that turn each upstream value into at most one downstream
/// value: `map`, `filter`, `compactMap`, `removeDuplicates`.
///
/// It sits between upstream and downstream: downstream's requests pass straight up, and a value
/// the transform drops is replaced by a request for one more, so that downstream's demand is
/// honoured exactly. Thread-safe; never calls upstream or downstream with its lock held.
@usableFromInline
final class TransformingInner<Downstream: Subscriber, Input>: Subscriber, Subscription,
  @unchecked Sendable
{
  // @unchecked: `status` is behind `lock`; the rest is immutable.
  @usableFromInline typealias Failure = Downstream.Failure

  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var status = SubscriptionStatus.awaitingSubscription
  @usableFromInline let downstream: Downstream
  /// The downstream value for an upstream value, or `nil` to drop it.
  @usableFromInline let transform: (Input) -> Downstream.Input?

  @inlinable init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input?) {
    self.downstream = downstream
    self.transform = transform
  }

  @inlinable func receive(subscription: any Subscription) {
    let accepted = lock.withLock {
      guard case .awaitingSubscription = status else { return false }
      status = .subscribed(subscription)
      return true
    }
    guard accepted else { return subscription.cancel() }
    downstream.receive(subscription: self)
  }

  @inlinable func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ status.isSubscribed }) else { return .none }
    guard let output = transform(input) else { return .max(1) }
    return downstream.receive(output)
  }

  @inlinable func receive(completion: Subscribers.Completion<Failure>) {
    let wasSubscribed = lock.withLock {
      defer { status = .terminal }
      return status.isSubscribed
    }
    if wasSubscribed { downstream.receive(completion: completion) }
  }

  @inlinable func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  @inlinable func cancel() {
    let subscription = lock.withLock {
      defer { status = .terminal }
      return status.subscription
    }
    subscription?.cancel()
  }
}
