import KVOLiteLocking

/// The subscription of `receive(on:)` and `delay`: each value and the completion is handed to
/// `schedule` (now on a scheduler, or after a delay), and delivered from there, in order.
///
/// The subscription is handed downstream at once. The demand downstream answers with when a
/// value is delivered is requested from upstream then. After a cancel, waiting deliveries do
/// nothing; values that arrive after the completion are dropped. Deliveries are serialized by
/// a recursive lock, under which the state is checked too (so no value follows the completion,
/// whatever thread the scheduler runs them on). Downstream is let go of once it has its
/// completion, or on cancel.
final class ScheduledDeliveryInner<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`; downstream is called one event at a time.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
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
    guard let downstream = lock.withLock({ status.accept(subscription) ? downstream : nil }) else {
      return subscription.cancel()
    }
    delivery.withLock { downstream.receive(subscription: self) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ status.isSubscribed && !completing }) else { return .none }
    schedule { [self] in
      let more = delivery.withLock { () -> Subscribers.Demand in
        guard let downstream = lock.withLock({ status.isSubscribed ? downstream : nil }) else {
          return .none
        }
        return downstream.receive(input)
      }
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
      let downstream = lock.withLock { () -> Downstream? in
        guard status.isSubscribed else { return nil }
        status = .terminal
        return self.downstream.take()
      }
      guard let downstream else { return }
      delivery.withLock { downstream.receive(completion: completion) }
    }
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let (subscription, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      defer { status = .terminal }
      return (status.subscription, self.downstream.take())
    }
    subscription?.cancel()
    _ = downstream
  }

  var description: String { name }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
