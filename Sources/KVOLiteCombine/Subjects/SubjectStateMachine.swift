/// The state of a subject (`PassthroughSubject`, `CurrentValueSubject`, `@Published`,
/// `ObservableObjectPublisher`): its subscribers' conduits, its upstream subscriptions, its
/// current value and whether it has completed. A value type whose mutating methods are the
/// transitions; each returns what the owner (``SubjectCore``) must do after unlocking. Not
/// thread-safe: the owner calls it with its lock held, and never calls out from it.
///
///     state      | subscribe              | send            | complete      | cancel (remove)
///     -----------+------------------------+-----------------+---------------+----------------
///     active     | list it; .handOver     | .offer(listed)  | -> completed; | empty its slot
///                |                        |                 | .finish(all)  |
///     completed  | .completeAtOnce(c)     | .none           | .none         | nothing
///
/// The conduits are kept in subscription order, each at the position it keeps; a cancelled
/// one's slot is emptied at once (nothing is searched or shifted), and the list is compacted,
/// the positions renumbered, once empty slots are half of it: each cancel is O(1) amortized.
/// A send gets the list itself (one retain), which a later change copies instead of altering.
@usableFromInline
struct SubjectStateMachine<Output, Failure: Error> {
  @usableFromInline typealias Conduit = SubjectConduitBase<Output, Failure>

  /// Where the subject stands; `completed` is its one end.
  @usableFromInline enum State {
    case active
    case completed(Subscribers.Completion<Failure>)
  }

  /// What the owner does after ``subscribe(_:)``.
  @usableFromInline enum SubscribeAction {
    /// The conduit is listed: hand the subscriber its subscription (holding the conduit's
    /// delivery lock since before the transition, so nothing reaches the subscriber first).
    case handOver
    /// The subject has completed: hand the subscriber an empty subscription and `completion`.
    case completeAtOnce(Subscribers.Completion<Failure>)
  }

  /// What the owner does after ``send(_:)``.
  @usableFromInline enum SendAction {
    /// Offer the value to each conduit listed (`nil` slots are cancelled ones).
    case offer(ContiguousArray<Conduit?>)
    case none
  }

  /// What the owner does after ``complete(_:)``.
  @usableFromInline enum CompleteAction {
    /// Finish each conduit that was listed with `completion`.
    case finish(ContiguousArray<Conduit?>, Subscribers.Completion<Failure>)
    case none
  }

  /// What the owner does with the subject's upstream subscriptions.
  @usableFromInline enum UpstreamAction {
    /// Request `.unlimited` of each.
    case requestUnlimited([any Subscription])
    /// Cancel each.
    case cancel([any Subscription])
    case none
  }

  @usableFromInline let kind: SubjectKind
  @usableFromInline var state = State.active
  /// The subscribers' conduits, each at its ``SubjectConduitBase/position``; `nil` where one
  /// was cancelled.
  @usableFromInline var conduits = ContiguousArray<Conduit?>()
  /// How many of `conduits` are `nil`.
  @usableFromInline var emptySlots = 0
  @usableFromInline var upstreams: [any Subscription] = []
  /// Whether a subscriber has asked for values (a passthrough subject asks its upstreams then).
  @usableFromInline var downstreamAsked = false
  /// The current value (current-value kinds only).
  @usableFromInline var current: Output?

  @inlinable init(kind: SubjectKind, current: Output? = nil) {
    self.kind = kind
    self.current = current
  }

  /// Whether the subject has completed.
  @inlinable var isCompleted: Bool {
    if case .completed = state { return true }
    return false
  }

  /// A subscriber attaches through `conduit`: listed while the subject is active.
  @inlinable mutating func subscribe(_ conduit: Conduit) -> SubscribeAction {
    if case .completed(let completion) = state { return .completeAtOnce(completion) }
    conduit.position = conduits.count
    conduits.append(conduit)
    return .handOver
  }

  /// A value is sent: a current-value subject stores it first (`@Published` stores it after,
  /// with ``store(_:)``); nothing happens after completion.
  @inlinable mutating func send(_ value: Output) -> SendAction {
    guard case .active = state else { return .none }
    if kind.storesBeforeSending { current = value }
    return .offer(conduits)
  }

  /// Stores `value` without sending it (`@Published` after its send; a current-value subject's
  /// `value` set after completion).
  @inlinable mutating func store(_ value: Output) {
    current = value
  }

  /// The subject completes, once: every listed conduit is finished and the list let go of.
  @inlinable mutating func complete(_ completion: Subscribers.Completion<Failure>)
    -> CompleteAction
  {
    guard case .active = state else { return .none }
    state = .completed(completion)
    defer {
      conduits = []
      emptySlots = 0
    }
    return .finish(conduits, completion)
  }

  /// `conduit` was cancelled: its slot is emptied (unless the subject has completed, which let
  /// go of the list), and the list compacted once empty slots are half of it. The caller
  /// keeps `conduit` alive, so nothing this lets go of runs a `deinit`.
  @inlinable mutating func remove(_ conduit: Conduit) {
    let position = conduit.position
    guard position < conduits.count, conduits[position] === conduit else { return }
    conduits[position] = nil
    emptySlots += 1
    guard conduits.count >= 16, emptySlots * 2 > conduits.count else { return }
    var live = ContiguousArray<Conduit?>()
    live.reserveCapacity(conduits.count - emptySlots)
    for case let conduit? in conduits {
      conduit.position = live.count
      live.append(conduit)
    }
    conduits = live
    emptySlots = 0
  }

  /// An upstream subscription (`publisher.subscribe(subject)`) is kept; it is asked for values
  /// now if a subscriber has already asked (passthrough) or at once (the other kinds).
  @inlinable mutating func receive(upstream subscription: any Subscription) -> UpstreamAction {
    upstreams.append(subscription)
    return kind.asksUpstreamsAtOnce || downstreamAsked ? .requestUnlimited([subscription]) : .none
  }

  /// A subscriber asked for values: the first time, a passthrough subject asks its upstreams.
  @inlinable mutating func acknowledgeDemand() -> UpstreamAction {
    guard !kind.asksUpstreamsAtOnce, !downstreamAsked else { return .none }
    downstreamAsked = true
    return .requestUnlimited(upstreams)
  }

  /// The subject is being released: its upstream subscriptions are cancelled.
  @inlinable mutating func release() -> UpstreamAction {
    defer { upstreams = [] }
    return .cancel(upstreams)
  }
}
