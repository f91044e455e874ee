import KVOLiteLocking

/// What a filtering operator does with one upstream value.
@usableFromInline
enum FilteringStep<Output, Failure: Error> {
  /// Send this value downstream.
  case send(Output)
  /// Drop the value (upstream is answered with a demand of one more).
  case skip
  /// Finish: cancel upstream and send `.finished` downstream.
  case finish
  /// Fail: cancel upstream and send the error downstream.
  case fail(Failure)
}

/// The subscription of the operators that turn each upstream value into at most one downstream
/// value and may end early (`tryMap`, `tryFilter`, `tryCompactMap`, `removeDuplicates` and its
/// `try` form, `prefix(while:)` and its `try` form), with Combine's state machine:
///
/// - a value, completion or request before upstream's subscription is a programming error and
///   traps; so does a request for `.none`;
/// - events after completion or cancellation are ignored (a value answers `.none`);
/// - a dropped value answers upstream with a demand of one more;
/// - when it completes or is cancelled it lets go of its downstream and its closures (after
///   unlocking), so a subscriber that keeps this subscription is not kept alive by it.
///
/// Subclasses implement ``receive(_:)`` (values arrive one at a time): under the lock,
/// ``admitLocked()`` then a copy of ``downstream``, then the work outside it. They keep their
/// closures in optional stored properties (or ``Slot``s) that ``takeClosures()`` empties.
/// Thread-safe.
@usableFromInline
class FilteringSubscription<Downstream: Subscriber, Input, UpstreamFailure: Error>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  @usableFromInline typealias Failure = UpstreamFailure

  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var status = SubscriptionStatus.awaitingSubscription
  /// The subscriber, until the subscription ends.
  @usableFromInline let downstream: Slot<Downstream>
  /// Upstream's failure as downstream's (the identity, or an upcast to `any Error`).
  @usableFromInline let mapFailure: (UpstreamFailure) -> Downstream.Failure

  @inlinable init(
    downstream: Downstream, mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure
  ) {
    self.downstream = Slot(downstream)
    self.mapFailure = mapFailure
  }

  /// Handles one value. Abstract.
  @inlinable func receive(_ input: Input) -> Subscribers.Demand {
    fatalError("FilteringSubscription.receive(_:) is abstract")
  }

  /// Empties the subclass's closure slots, with the lock held; what it returns is released
  /// after unlocking.
  @usableFromInline func takeClosures() -> Any? { nil }

  /// The operator's name, as Combine's subscription describes itself. Abstract.
  @usableFromInline var description: String {
    fatalError("FilteringSubscription.description is abstract")
  }
  @usableFromInline var customMirror: Mirror {
    Mirror(self, children: [("downstream", lock.withLock { downstream.valueIfFull } as Any)])
  }
  @usableFromInline var playgroundDescription: Any { description }

  @inlinable final func receive(subscription: any Subscription) {
    lock.lock()
    guard status.accept(subscription) else {
      lock.unlock()
      return subscription.cancel()
    }
    let downstream = self.downstream.value
    lock.unlock()
    downstream.receive(subscription: self)
  }

  /// With the lock held, and leaving it held: the upstream subscription a value arrives on. A
  /// value before the subscription traps, as in Combine; `nil` after completion or
  /// cancellation (the value is then ignored). While it is not `nil`, ``downstream`` and the
  /// subclass's closures are there.
  @inlinable final func admitLocked() -> (any Subscription)? {
    switch status {
    case .awaitingSubscription:
      lock.unlock()
      fatalError("\(description) received a value before receiving a subscription")
    case .terminal:
      return nil
    case .subscribed(let subscription):
      return subscription
    }
  }

  /// Ends, with the lock held: what was let go of, to release after unlocking.
  @inlinable final func terminate() -> (downstream: Downstream?, closures: Any?) {
    status = .terminal
    return (downstream.take(), takeClosures())
  }

  /// Ends early: cancels upstream, then completes downstream.
  @inlinable final func end(
    _ subscription: any Subscription, with completion: Subscribers.Completion<Downstream.Failure>
  ) {
    let ended = lock.withLock { terminate() }
    subscription.cancel()
    ended.downstream?.receive(completion: completion)
  }

  @inlinable final func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    switch status {
    case .awaitingSubscription:
      lock.unlock()
      fatalError("\(description) received a completion before receiving a subscription")
    case .terminal:
      lock.unlock()
    case .subscribed:
      let ended = terminate()
      lock.unlock()
      switch completion {
      case .finished: ended.downstream?.receive(completion: .finished)
      case .failure(let error): ended.downstream?.receive(completion: .failure(mapFailure(error)))
      }
    }
  }

  @inlinable final func request(_ demand: Subscribers.Demand) {
    require(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.lock()
    switch status {
    case .awaitingSubscription:
      lock.unlock()
      fatalError("\(description) received a request before sending its subscription")
    case .terminal:
      lock.unlock()
    case .subscribed(let subscription):
      lock.unlock()
      subscription.request(demand)
    }
  }

  @inlinable final func cancel() {
    let (subscription, ended) = lock.withLock { (status.subscription, terminate()) }
    subscription?.cancel()
    withExtendedLifetime(ended) {}
  }
}

/// A ``FilteringSubscription`` whose step is a closure: the subscription of `tryMap`,
/// `tryFilter`, `tryCompactMap`, `prefix(while:)` and `tryPrefix(while:)`.
@usableFromInline
final class StepSubscription<Downstream: Subscriber, Input, UpstreamFailure: Error>:
  FilteringSubscription<Downstream, Input, UpstreamFailure>, @unchecked Sendable
{
  @usableFromInline typealias Step = (Input) -> FilteringStep<Downstream.Input, Downstream.Failure>

  @usableFromInline let name: String
  /// What to do with a value; `nil` once the subscription ended. A stored optional closure,
  /// not a ``Slot``: a closure's layout does not depend on its types, so this unspecialized
  /// class reads it without looking up the function type's metadata. Behind `lock`.
  @exclusivity(unchecked) @usableFromInline var body: Step?

  @inlinable init(
    downstream: Downstream, name: String,
    mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    body: @escaping Step
  ) {
    self.name = name
    self.body = body
    super.init(downstream: downstream, mapFailure: mapFailure)
  }

  @inlinable override func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard let subscription = admitLocked() else {
      lock.unlock()
      return .none
    }
    // Present: the subscription has not ended (`admitLocked()`).
    let (downstream, step) = (self.downstream.value, body!)
    lock.unlock()
    switch step(input) {
    case .send(let output): return downstream.receive(output)
    case .skip: return .max(1)
    case .finish: end(subscription, with: .finished)
    case .fail(let error): end(subscription, with: .failure(error))
    }
    return .none
  }

  @usableFromInline override func takeClosures() -> Any? {
    defer { body = nil }
    return body
  }
  @usableFromInline override var description: String { name }
}
