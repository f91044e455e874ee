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
/// - it keeps its downstream for its whole life, as Combine's does.
///
/// Subclasses give ``step(_:)`` (called outside the lock; values arrive one at a time),
/// ``description`` and, where Combine shows more, ``customMirror``. Thread-safe.
@usableFromInline
class FilteringSubscription<Downstream: Subscriber, Input, UpstreamFailure: Error>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  @usableFromInline typealias Failure = UpstreamFailure

  @usableFromInline let downstream: Downstream
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var status = SubscriptionStatus.awaitingSubscription
  /// Upstream's failure as downstream's (the identity, or an upcast to `any Error`).
  @usableFromInline let mapFailure: (UpstreamFailure) -> Downstream.Failure

  @inlinable init(
    downstream: Downstream, mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure
  ) {
    self.downstream = downstream
    self.mapFailure = mapFailure
  }

  /// What to do with `input`. Abstract.
  @usableFromInline func step(_ input: Input) -> FilteringStep<Downstream.Input, Downstream.Failure>
  {
    preconditionFailure("FilteringSubscription.step is abstract")
  }

  /// The operator's name, as Combine's subscription describes itself. Abstract.
  @usableFromInline var description: String {
    preconditionFailure("FilteringSubscription.description is abstract")
  }
  @usableFromInline var customMirror: Mirror {
    Mirror(self, children: [("downstream", downstream)])
  }
  @usableFromInline var playgroundDescription: Any { description }

  @inlinable final func receive(subscription: any Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else { return subscription.cancel() }
    downstream.receive(subscription: self)
  }

  /// Sends `input` through ``step(_:)``. Subclasses may override it (keeping ``admit()`` first)
  /// to avoid the generic `FilteringStep` on their hot path.
  @inlinable func receive(_ input: Input) -> Subscribers.Demand {
    guard let subscription = admit() else { return .none }
    switch step(input) {
    case .send(let output): return downstream.receive(output)
    case .skip: return .max(1)
    case .finish: end(subscription, with: .finished)
    case .fail(let error): end(subscription, with: .failure(error))
    }
    return .none
  }

  /// The upstream subscription a value arrives on: a value before the subscription traps, as in
  /// Combine; `nil` after completion or cancellation (the value is then ignored).
  @inlinable final func admit() -> (any Subscription)? {
    lock.lock()
    switch status {
    case .awaitingSubscription:
      lock.unlock()
      preconditionFailure("\(description) received a value before receiving a subscription")
    case .terminal:
      lock.unlock()
      return nil
    case .subscribed(let subscription):
      lock.unlock()
      return subscription
    }
  }

  /// Ends early: cancels upstream, then completes downstream.
  @inlinable final func end(
    _ subscription: any Subscription, with completion: Subscribers.Completion<Downstream.Failure>
  ) {
    lock.withLock { status = .terminal }
    subscription.cancel()
    downstream.receive(completion: completion)
  }

  @inlinable final func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    switch status {
    case .awaitingSubscription:
      lock.unlock()
      preconditionFailure("\(description) received a completion before receiving a subscription")
    case .terminal:
      lock.unlock()
    case .subscribed:
      status = .terminal
      lock.unlock()
      switch completion {
      case .finished: downstream.receive(completion: .finished)
      case .failure(let error): downstream.receive(completion: .failure(mapFailure(error)))
      }
    }
  }

  @inlinable final func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.lock()
    switch status {
    case .awaitingSubscription:
      lock.unlock()
      preconditionFailure("\(description) received a request before sending its subscription")
    case .terminal:
      lock.unlock()
    case .subscribed(let subscription):
      lock.unlock()
      subscription.request(demand)
    }
  }

  @inlinable final func cancel() {
    let subscription = lock.withLock {
      defer { status = .terminal }
      return status.subscription
    }
    subscription?.cancel()
  }
}

/// A ``FilteringSubscription`` whose step is a closure: the subscription of `tryMap`,
/// `tryFilter`, `tryCompactMap`, `prefix(while:)` and `tryPrefix(while:)`.
@usableFromInline
final class StepSubscription<Downstream: Subscriber, Input, UpstreamFailure: Error>:
  FilteringSubscription<Downstream, Input, UpstreamFailure>, @unchecked Sendable
{
  @usableFromInline let name: String
  @usableFromInline let body: (Input) -> FilteringStep<Downstream.Input, Downstream.Failure>

  @inlinable init(
    downstream: Downstream, name: String,
    mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    body: @escaping (Input) -> FilteringStep<Downstream.Input, Downstream.Failure>
  ) {
    self.name = name
    self.body = body
    super.init(downstream: downstream, mapFailure: mapFailure)
  }

  @inlinable override func step(_ input: Input) -> FilteringStep<
    Downstream.Input, Downstream.Failure
  > { body(input) }
  @usableFromInline override var description: String { name }
}
