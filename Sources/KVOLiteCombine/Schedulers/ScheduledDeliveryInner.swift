import KVOLiteLocking

/// The subscription of `receive(on:)` and `delay`, with Combine's state machine: each value and
/// the completion is handed to `schedule` (now on a scheduler, or after a delay), once, and
/// delivered from there, in the order they arrived, each no earlier than the scheduler ran its
/// action (through a ``SerialDrain``: on a concurrent scheduler, the scheduler may run the
/// actions in another order, or at once).
///
/// - The subscription is handed downstream at once; requests (`.none` too) go upstream while
///   subscribed; a cancel before the subscription does nothing (the subscription is taken when
///   it comes).
/// - A scheduled action keeps this object (and so the subscriber) alive until it runs. A value
///   is delivered if the subscription has not been cancelled by then, even after upstream's
///   completion has arrived; the demand downstream answers with is requested from upstream. The
///   completion is delivered when its action runs: a cancel after upstream's completion arrived
///   does nothing, as in Combine.
/// - Values and completions that arrive after the completion, or after a cancel, are ignored;
///   a cancel drops the values still waiting in the drain.
///
/// Deliveries are serialized by the drain, and the handover by a recursive lock that each
/// delivery takes too; the state is behind `lock` and nothing is called with it held. Downstream is let go of once it has its completion, or on cancel.
/// `ReceiveOn`'s subscription describes itself (``ReceiveOnInner``); `Delay`'s does not, as in
/// Combine.
class ScheduledDeliveryInner<Downstream: Subscriber>: Subscriber, Subscription,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`; downstream is called under `delivery`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private enum State {
    case awaitingSubscription
    case subscribed(any Subscription)
    /// Upstream's completion arrived and is scheduled.
    case pendingTerminal(any Subscription)
    case terminal

    var subscription: (any Subscription)? {
      switch self {
      case .subscribed(let subscription), .pendingTerminal(let subscription): subscription
      case .awaitingSubscription, .terminal: nil
      }
    }
  }

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
  private let schedule: (@escaping () -> Void) -> Void
  private let drain = SerialDrain()
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var state = State.awaitingSubscription

  init(downstream: Downstream, schedule: @escaping (@escaping () -> Void) -> Void) {
    self.downstream = downstream
    self.schedule = schedule
  }

  final func receive(subscription: any Subscription) {
    lock.lock()
    guard case .awaitingSubscription = state, let downstream else {
      lock.unlock()
      return subscription.cancel()
    }
    state = .subscribed(subscription)
    lock.unlock()
    delivery.withLock { downstream.receive(subscription: self) }
  }

  final func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard case .subscribed = state else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    let place = drain.reserve()
    schedule { self.drain.run(place) { self.deliver(input) } }
    return .none
  }

  private func deliver(_ input: Input) {
    guard let downstream = lock.withLock({ state.subscription == nil ? nil : downstream }) else {
      return
    }
    let more = delivery.withLock { downstream.receive(input) }
    guard more > 0 else { return }
    lock.withLock { state.subscription }?.request(more)
  }

  final func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard case .subscribed(let subscription) = state else { return lock.unlock() }
    state = .pendingTerminal(subscription)
    lock.unlock()
    let place = drain.reserve()
    schedule { self.drain.run(place) { self.deliver(completion) } }
  }

  private func deliver(_ completion: Subscribers.Completion<Failure>) {
    let downstream = lock.withLock { () -> Downstream? in
      guard case .pendingTerminal = state else { return nil }
      state = .terminal
      return self.downstream.take()
    }
    guard let downstream else { return }
    delivery.withLock { downstream.receive(completion: completion) }
  }

  final func request(_ demand: Subscribers.Demand) {
    lock.lock()
    guard case .subscribed(let subscription) = state else { return lock.unlock() }
    lock.unlock()
    subscription.request(demand)
  }

  final func cancel() {
    lock.lock()
    guard case .subscribed(let subscription) = state else { return lock.unlock() }
    state = .terminal
    let downstream = self.downstream.take()
    lock.unlock()
    drain.end()
    subscription.cancel()
    withExtendedLifetime(downstream) {}
  }
}

/// The subscription of `receive(on:)`: ``ScheduledDeliveryInner``, described as "ReceiveOn".
final class ReceiveOnInner<Downstream: Subscriber>: ScheduledDeliveryInner<Downstream>,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  var description: String { "ReceiveOn" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
