/// The state of one subscriber's subscription to a subject (its conduit): its demand, whether
/// it has had the current value, and whether it has ended. A value type whose mutating methods
/// are the transitions; each returns what the owner (``SubjectConduit``) must do after
/// unlocking. Not thread-safe: the owner calls it with its lock held.
///
///     state  | offer               | request              | finish             | cancel
///     -------+---------------------+----------------------+--------------------+-------------
///     live   | demand > 0 (or the  | demand += n;         | -> ended;          | -> ended;
///            | kind ignores it):   | .offerCurrentValue   | .deliverCompletion | .leave
///            | demand - 1;         | (a current value not |                    |
///            | .deliver; else      | had yet) or          |                    |
///            | .none               | .acknowledgeDemand   |                    |
///     ended  | .none               | .none                | .none              | .none
///
/// A value sent while the subscriber has no demand makes a current-value subscriber wait for
/// its next request, which then delivers the latest value. The subscriber receives its
/// subscription before the conduit can deliver anything: the owner holds its delivery lock
/// from before it is listed with the subject until the handover is done (see
/// ``SubjectCore``), so this machine has no state for it.
@usableFromInline
struct SubjectConduitStateMachine: Equatable, Sendable {
  /// Where the conduit stands; `ended` is its one end (finished or cancelled).
  @usableFromInline enum State: Equatable, Sendable {
    /// The subscriber's demand left, and whether it has had the current value or a later one.
    case live(demand: Subscribers.Demand, hasCurrentValue: Bool)
    /// The demand left when it ended, which its mirror still shows, as Combine's does.
    case ended(demand: Subscribers.Demand)
  }

  /// What the owner does after ``offer(ignoringDemand:)``.
  @usableFromInline enum OfferAction: Equatable, Sendable {
    /// Deliver the value (under the delivery lock), then add what the subscriber answers.
    case deliver
    case none
  }

  /// What the owner does after ``request(_:hasValue:)``.
  @usableFromInline enum RequestAction: Equatable, Sendable {
    /// Take the delivery lock, and deliver the current value if ``takeCurrentValue()`` still
    /// allows it.
    case offerCurrentValue
    /// Tell the subject a subscriber asked (a passthrough subject then asks its upstreams).
    case acknowledgeDemand
    case none
  }

  /// What the owner does after ``finish()`` or ``cancel()``.
  @usableFromInline enum EndAction: Equatable, Sendable {
    /// Let go of the subscriber, the subject and its state: after ``finish()``, delivering
    /// the completion to the subscriber first (under the delivery lock); after ``cancel()``,
    /// taking the conduit out of the subject's list.
    case end
    case none
  }

  @usableFromInline var state = State.live(demand: .none, hasCurrentValue: false)

  @inlinable init() {}

  /// The demand left (when it ended, once ended).
  @inlinable var demand: Subscribers.Demand {
    switch state {
    case .live(let demand, _), .ended(let demand): demand
    }
  }

  /// A value is offered: it goes out if the subscriber asked for it (or the kind ignores
  /// demand), using one unit of the demand.
  @inlinable mutating func offer(ignoringDemand: Bool) -> OfferAction {
    guard case .live(let demand, _) = state else { return .none }
    if ignoringDemand {
      state = .live(demand: demand, hasCurrentValue: true)
      return .deliver
    }
    guard demand > 0 else {
      state = .live(demand: demand, hasCurrentValue: false)
      return .none
    }
    state = .live(demand: demand - 1, hasCurrentValue: true)
    return .deliver
  }

  /// The subscriber answered a delivery with `more` demand.
  @inlinable mutating func delivered(answering more: Subscribers.Demand) {
    guard more > 0, case .live(let demand, let hasCurrentValue) = state else { return }
    state = .live(demand: demand + more, hasCurrentValue: hasCurrentValue)
  }

  /// The subscriber asks for `newDemand` more values (`hasValue`: the subject keeps a current
  /// value).
  @inlinable mutating func request(_ newDemand: Subscribers.Demand, hasValue: Bool)
    -> RequestAction
  {
    guard case .live(let demand, let hasCurrentValue) = state else { return .none }
    state = .live(demand: demand + newDemand, hasCurrentValue: hasCurrentValue)
    return hasValue && !hasCurrentValue ? .offerCurrentValue : .acknowledgeDemand
  }

  /// Under the delivery lock, after `.offerCurrentValue`: whether the current value goes out
  /// now (the conduit is live, has not had it, and has demand), using one unit of the demand.
  @inlinable mutating func takeCurrentValue() -> OfferAction {
    guard case .live(let demand, false) = state, demand > 0 else { return .none }
    state = .live(demand: demand - 1, hasCurrentValue: true)
    return .deliver
  }

  /// The subject completes.
  @inlinable mutating func finish() -> EndAction {
    guard case .live(let demand, _) = state else { return .none }
    state = .ended(demand: demand)
    return .end
  }

  /// The subscriber cancels.
  @inlinable mutating func cancel() -> EndAction {
    guard case .live(let demand, _) = state else { return .none }
    state = .ended(demand: demand)
    return .end
  }
}
