/// The subscription of the operators that turn each upstream value into at most one downstream
/// value: `map`, `filter`, `compactMap`, `removeDuplicates`.
///
/// It sits between upstream and downstream: downstream's requests pass straight up, and a value
/// the transform drops is replaced by a request for one more, so that downstream's demand is
/// honoured exactly. Thread-safe; never calls upstream or downstream with its lock held.
final class TransformingInner<Downstream: Subscriber, Input>: Subscriber, Subscription,
  @unchecked Sendable
{
  // @unchecked: `status` is behind `lock`; the rest is immutable.
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private let downstream: Downstream
  /// The downstream value for an upstream value, or `nil` to drop it.
  private let transform: (Input) -> Downstream.Input?

  init(downstream: Downstream, transform: @escaping (Input) -> Downstream.Input?) {
    self.downstream = downstream
    self.transform = transform
  }

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock {
      guard case .awaitingSubscription = status else { return false }
      status = .subscribed(subscription)
      return true
    }
    guard accepted else { return subscription.cancel() }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ status.subscription != nil }) else { return .none }
    guard let output = transform(input) else { return .max(1) }
    return downstream.receive(output)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let wasSubscribed = lock.withLock {
      defer { status = .terminal }
      return status.subscription != nil
    }
    if wasSubscribed { downstream.receive(completion: completion) }
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let subscription = lock.withLock {
      defer { status = .terminal }
      return status.subscription
    }
    subscription?.cancel()
  }
}
