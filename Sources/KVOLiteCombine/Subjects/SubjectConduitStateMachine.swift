/// The state of one subscriber's subscription to a subject (its conduit): whether its
/// subscriber is still being handed it, its demand, whether it has had the current value, and
/// whether it has ended. A value type whose mutating methods are the transitions; each returns
/// what the owner (``SubjectConduit``) must do after unlocking. Not thread-safe: the owner calls
/// it with its lock held.
///
///     state        | offer / request /   | finish            | cancel   | endHandOver
///                  | takeCurrentValue    |                   |          |
///     -------------+---------------------+-------------------+----------+------------------
///     handingOver  | as live (from the   | -> held; .hold    | -> ended | -> live; .none
///                  | subscriber's own    |                   | .end     |
///                  | thread)             |                   |          |
///     held         | .none (request adds | .none             | -> ended | -> ended; .end
///                  | to the demand)      |                   | .end     | (deliver the held
///                  |                     |                   | (drop)   | completion)
///     live         | see below           | -> ended; .end    | -> ended | .none
///                  |                     |                   | .end     |
///     ended        | .none               | .none             | .none    | .none
///
/// Live: an offer goes out while the subscriber has demand (or the kind ignores it), using one
/// unit (`.deliver`), else `.none`; a request adds to the demand and asks the owner to offer
/// the current value not had yet (`.offerCurrentValue`) or to acknowledge the demand. A value
/// sent while the subscriber has no demand makes a current-value subscriber wait for its next
/// request, which then delivers the latest value.
///
/// The handover: the subscribing thread holds the conduit's delivery lock from before the
/// conduit is listed with the subject until the subscriber's `receive(subscription:)` has
/// returned (see ``SubjectCore``), so nothing reaches the subscriber before its subscription,
/// and only its own thread reaches it meanwhile. A completion that another thread sends then
/// is held (the conduit's `held` state, `handingOver` with `completionHeld`), and the
/// subscribing thread delivers it when the handover ends — unless the subscriber cancelled
/// inside `receive(subscription:)`: a subscriber that cancels there receives nothing more.
/// (Combine leaves this unspecified: a cancel does not stop signals already in flight.)
@usableFromInline
struct SubjectConduitStateMachine: Equatable, Sendable {
  /// Where the conduit stands; `ended` is its one end (finished or cancelled).
  @usableFromInline enum State: Equatable, Sendable {
    /// The subscriber is being handed its subscription: its demand so far, whether it has had
    /// the current value, and whether the subject completed meanwhile (the completion is held
    /// until the handover ends).
    case handingOver(
      demand: Subscribers.Demand, hasCurrentValue: Bool, completionHeld: Bool)
    /// The subscriber's demand left, and whether it has had the current value or a later one.
    case live(demand: Subscribers.Demand, hasCurrentValue: Bool)
    /// The demand left when it ended, which its mirror still shows, as Combine's does.
    case ended(demand: Subscribers.Demand)
  }

  /// What the owner does after ``offer(ignoringDemand:)`` or ``takeCurrentValue()``.
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

  /// What the owner does after ``finish()``, ``cancel()`` or ``endHandOver()``.
  @usableFromInline enum EndAction: Equatable, Sendable {
    /// Let go of the subscriber, the subject and its state: after ``finish()`` and
    /// ``endHandOver()``, delivering the completion to the subscriber first (under the
    /// delivery lock; the held one after ``endHandOver()``); after ``cancel()``, taking the
    /// conduit out of the subject's list (and dropping a held completion).
    case end
    /// Keep the completion: it is delivered when the handover ends, unless the subscriber
    /// cancels first.
    case hold
    case none
  }

  @usableFromInline var state = State.handingOver(
    demand: .none, hasCurrentValue: false, completionHeld: false)

  @inlinable init() {}

  /// The demand left (when it ended, once ended).
  @inlinable var demand: Subscribers.Demand {
    switch state {
    case .handingOver(let demand, _, _), .live(let demand, _), .ended(let demand): demand
    }
  }

  /// The demand and whether the current value was had, while the conduit can deliver values
  /// (live, or handing over with no completion held).
  @inlinable var open: (demand: Subscribers.Demand, hasCurrentValue: Bool)? {
    switch state {
    case .handingOver(let demand, let hasCurrentValue, false),
      .live(let demand, let hasCurrentValue):
      (demand, hasCurrentValue)
    case .handingOver, .ended: nil
    }
  }

  /// Sets the demand and whether the current value was had, keeping the phase.
  @inlinable mutating func update(demand: Subscribers.Demand, hasCurrentValue: Bool) {
    switch state {
    case .handingOver(_, _, let held):
      state = .handingOver(demand: demand, hasCurrentValue: hasCurrentValue, completionHeld: held)
    case .live: state = .live(demand: demand, hasCurrentValue: hasCurrentValue)
    case .ended: state = .ended(demand: demand)
    }
  }

  /// A value is offered: it goes out if the subscriber asked for it (or the kind ignores
  /// demand), using one unit of the demand.
  @inlinable mutating func offer(ignoringDemand: Bool) -> OfferAction {
    guard let (demand, _) = open else { return .none }
    if ignoringDemand {
      update(demand: demand, hasCurrentValue: true)
      return .deliver
    }
    guard demand > 0 else {
      update(demand: demand, hasCurrentValue: false)
      return .none
    }
    update(demand: demand - 1, hasCurrentValue: true)
    return .deliver
  }

  /// The subscriber answered a delivery with `more` demand.
  @inlinable mutating func delivered(answering more: Subscribers.Demand) {
    guard more > 0, let (demand, hasCurrentValue) = open else { return }
    update(demand: demand + more, hasCurrentValue: hasCurrentValue)
  }

  /// The subscriber asks for `newDemand` more values (`hasValue`: the subject keeps a current
  /// value).
  @inlinable mutating func request(_ newDemand: Subscribers.Demand, hasValue: Bool)
    -> RequestAction
  {
    if case .handingOver(let demand, let hasCurrentValue, true) = state {
      state = .handingOver(
        demand: demand + newDemand, hasCurrentValue: hasCurrentValue, completionHeld: true)
      return .none
    }
    guard let (demand, hasCurrentValue) = open else { return .none }
    update(demand: demand + newDemand, hasCurrentValue: hasCurrentValue)
    return hasValue && !hasCurrentValue ? .offerCurrentValue : .acknowledgeDemand
  }

  /// Under the delivery lock, after `.offerCurrentValue`: whether the current value goes out
  /// now (the conduit is open, has not had it, and has demand), using one unit of the demand.
  @inlinable mutating func takeCurrentValue() -> OfferAction {
    guard case (let demand, false)? = open, demand > 0 else { return .none }
    update(demand: demand - 1, hasCurrentValue: true)
    return .deliver
  }

  /// The subject completes: the completion goes out now, or is held while the subscriber is
  /// handed its subscription.
  @inlinable mutating func finish() -> EndAction {
    switch state {
    case .handingOver(let demand, let hasCurrentValue, false):
      state = .handingOver(demand: demand, hasCurrentValue: hasCurrentValue, completionHeld: true)
      return .hold
    case .live(let demand, _):
      state = .ended(demand: demand)
      return .end
    case .handingOver, .ended:
      return .none
    }
  }

  /// The subscriber cancels (a held completion is dropped).
  @inlinable mutating func cancel() -> EndAction {
    switch state {
    case .handingOver(let demand, _, _), .live(let demand, _):
      state = .ended(demand: demand)
      return .end
    case .ended:
      return .none
    }
  }

  /// The subscriber's `receive(subscription:)` returned: the conduit is live, or, with a
  /// completion held and no cancel since, ends, delivering it.
  @inlinable mutating func endHandOver() -> EndAction {
    switch state {
    case .handingOver(let demand, let hasCurrentValue, false):
      state = .live(demand: demand, hasCurrentValue: hasCurrentValue)
      return .none
    case .handingOver(let demand, _, true):
      state = .ended(demand: demand)
      return .end
    case .live, .ended:
      return .none
    }
  }
}
