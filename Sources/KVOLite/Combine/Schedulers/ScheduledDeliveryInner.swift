/// The subscription of `receive(on:)` and `delay`: each value and the completion is handed to
/// `schedule` (now on a scheduler, or after a delay), and delivered from there, in order.
///
/// The subscription is handed downstream at once. The demand downstream answers with when a
/// value is delivered is requested from upstream then. After a cancel, waiting deliveries do
/// nothing; values that arrive after the completion are dropped. Deliveries are serialized by
/// a recursive lock.
final class ScheduledDeliveryInner<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`; downstream is called one event at a time.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let downstream: Downstream
  private let name: String
  private let schedule: (@escaping () -> Void) -> Void
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var completing = false

  init(downstream: Downstream, name: String, schedule: @escaping (@escaping () -> Void) -> Void) {
    self.downstream = downstream
    self.name = name
    self.schedule = schedule
  }

  func receive(subscription: any Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else { return subscription.cancel() }
    delivery.withLock { downstream.receive(subscription: self) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ status.isSubscribed && !completing }) else { return .none }
    schedule { [self] in
      guard lock.withLock({ status.isSubscribed }) else { return }
      let more = delivery.withLock { downstream.receive(input) }
      guard more > 0 else { return }
      lock.withLock { status.subscription }?.request(more)
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard
      lock.withLock({ () -> Bool in
        guard status.isSubscribed, !completing else { return false }
        completing = true
        return true
      })
    else { return }
    schedule { [self] in
      guard
        lock.withLock({ () -> Bool in
          guard status.isSubscribed else { return false }
          status = .terminal
          return true
        })
      else { return }
      delivery.withLock { downstream.receive(completion: completion) }
    }
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let subscription = lock.withLock { () -> (any Subscription)? in
      defer { status = .terminal }
      return status.subscription
    }
    subscription?.cancel()
  }

  var description: String { name }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
