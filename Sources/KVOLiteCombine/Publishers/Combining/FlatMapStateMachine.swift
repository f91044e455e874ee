/// The state of a `flatMap` subscription (Combine's state machine): upstream's subscription,
/// the children's, the demand, the children's values that found no demand, and where a
/// delivery stands. A value type whose mutating methods are the transitions; each returns what
/// the owner (`FlatMapInner`) must do after unlocking. Not thread-safe: the owner calls it with
/// its lock held.
///
///     phase | upstream value | upstream      | child value       | child        | child
///           |                | completion    |                   | finished     | failure
///     ------+----------------+---------------+-------------------+--------------+------------
///     live  | a new child    | finished:     | delivered within  | forgotten;   | -> ended;
///           |                | ends when     | the demand (then  | ends when    | fail,
///           |                | nothing is    | .max(1) asked),   | nothing is   | cancelling
///           |                | left; failure:| else held         | left, or one | the others
///           |                | -> ended,     |                   | more asked   |
///           |                | cancelling    |                   | of upstream  |
///           |                | the children  |                   |              |
///     ended | ignored        | ignored       | as in live (*)    | ignored      | ignored
///
/// A cancel ends it from live, cancelling upstream and every child. A request adds to the
/// demand and delivers the values held, asking each child for one more after its value; a
/// request for `.unlimited` delivers every value held and asks every child for `.unlimited`. A
/// request made from inside downstream's `receive` only adds to the demand. The owner decides
/// each delivery (a child's value, a value held) with its delivery lock held, and delivers
/// under it, so a completion decided meanwhile follows every value decided before it. (*) As in Combine,
/// a child's value counts whatever the phase: after the end it still reaches, within the
/// demand, a subscriber that is alive.
struct FlatMapStateMachine<Output, Failure: Error> {
  /// Where the subscription stands; `ended` (completed or cancelled) is the one end.
  enum Phase: Equatable {
    case live
    case ended
  }

  /// What the owner does after a transition.
  enum Action {
    case none
    /// Cancel a subscription that is not wanted.
    case cancel(any Subscription)
    /// Ask a subscription for `demand`.
    case request(any Subscription, Subscribers.Demand)
    /// Make a child from upstream's value with the transform, then ``childMade()`` and
    /// subscribe it.
    case makeChild
    /// Deliver the values held while there is demand (``nextHeld()``), then
    /// ``finishIfDone()``.
    case deliverHeld
    /// Deliver every value held (``takeHeld()``, their answers ignored), then ask each of
    /// `children` for `.unlimited`, then ``finishIfDone()``.
    case deliverAllHeld(thenRequestUnlimited: [any Subscription])
    /// End downstream (and let go of the transform) and send it `completion`, after
    /// cancelling `cancelling` (`afterUpstreamFailed`: upstream's completion on this thread
    /// meanwhile traps, as in Combine); release `dropped` (the values held) after unlocking.
    case complete(
      Subscribers.Completion<Failure>, cancelling: [any Subscription], afterUpstreamFailed: Bool,
      dropped: [Output])
    /// End downstream (and let go of the transform), cancelling `cancelling`, and release
    /// `dropped` after unlocking.
    case end(cancelling: [any Subscription], dropped: [Output])
  }

  /// What the owner does with a child's value.
  enum ValueAction: Equatable {
    /// Deliver it (the demand is unlimited); answer upstream with `.none`.
    case deliverUnlimited
    /// Deliver it (one unit of demand used), add downstream's answer (``delivered(answering:)``)
    /// and answer the child with `.max(1)`.
    case deliver
    /// It is held until a request; answer the child with `.none`.
    case hold
  }

  /// One step of delivering the values held.
  enum HeldStep {
    /// Deliver `value` (one unit of demand used), then ``deliveredHeld(answering:)`` and ask
    /// `child` (its sender, if still subscribed) for one more.
    case deliver(Output, child: (any Subscription)?)
    case done
  }

  let maxPublishers: Subscribers.Demand
  private(set) var phase = Phase.live
  private(set) var outer: (any Subscription)?
  private(set) var outerFinished = false
  private(set) var children: [Int: any Subscription] = [:]
  private(set) var nextIndex = 0
  /// Children subscribed to whose subscription has not arrived yet.
  private(set) var pendingChildren = 0
  private(set) var demand = Subscribers.Demand.none
  /// Values from children that found no demand, in arrival order, with their sender's number.
  private(set) var held = FIFO<(index: Int, value: Output)>()
  /// Downstream's `receive` is running: a request from inside it only adds demand.
  private(set) var inDownstream = false
  /// A child is being asked for one more value after a held one: what it sends at once is held.
  private(set) var askingChild = false

  init(maxPublishers: Subscribers.Demand) {
    self.maxPublishers = maxPublishers
  }

  // MARK: Downstream

  /// Downstream asks for `newDemand`.
  mutating func request(_ newDemand: Subscribers.Demand) -> Action {
    if inDownstream {
      demand += newDemand
      return .none
    }
    guard phase == .live else { return .none }
    guard newDemand == .unlimited else {
      demand += newDemand
      return .deliverHeld
    }
    demand = .unlimited
    return .deliverAllHeld(thenRequestUnlimited: Array(children.values))
  }

  /// With unlimited demand, the next value held, if any (its sender is not asked for more).
  mutating func takeHeld() -> Output? {
    guard demand == .unlimited, !held.isEmpty else { return nil }
    return held.removeFirst().value
  }

  /// The next value held, if there is demand for it.
  mutating func nextHeld() -> HeldStep {
    guard !held.isEmpty, demand > 0 else { return .done }
    let (index, value) = held.removeFirst()
    demand -= 1
    return .deliver(value, child: children[index])
  }

  /// A held value went out and downstream answered `more`: its sender is asked for one more,
  /// and what it sends meanwhile is held (``askedChild()`` ends that).
  mutating func deliveredHeld(answering more: Subscribers.Demand) {
    demand += more
    askingChild = true
  }

  /// The sender of a held value has been asked for one more.
  mutating func askedChild() {
    askingChild = false
  }

  /// Downstream's `receive` starts (the owner holds the delivery lock, and the subscriber is
  /// reachable) or ends.
  mutating func enterDownstream() { inDownstream = true }
  mutating func leaveDownstream() { inDownstream = false }

  /// Downstream cancels: ended; upstream and every child are cancelled.
  mutating func cancel() -> Action {
    guard phase == .live else { return .none }
    phase = .ended
    let cancelling = Array(children.values) + [outer.take()].compactMap { $0 }
    children = [:]
    defer { held = FIFO() }
    return .end(cancelling: cancelling, dropped: held.elements.map(\.value))
  }

  /// Ends with `.finished` once upstream has finished and no child is left or pending, and
  /// nothing is held.
  mutating func finishIfDone() -> Action {
    guard phase == .live, outerFinished, held.isEmpty, children.isEmpty, pendingChildren == 0
    else { return .none }
    phase = .ended
    return .complete(.finished, cancelling: [], afterUpstreamFailed: false, dropped: [])
  }

  // MARK: Upstream

  /// Upstream's subscription arrives: taken once (while live) and asked for `maxPublishers`.
  mutating func receiveOuter(_ subscription: any Subscription) -> Action {
    guard outer == nil, phase == .live else { return .cancel(subscription) }
    outer = subscription
    return .request(subscription, maxPublishers)
  }

  /// Upstream sends a value: while live, it becomes a child.
  func receiveOuterValue() -> Action {
    phase == .live ? .makeChild : .none
  }

  /// A child was made: the number of its subscriber.
  mutating func childMade() -> Int {
    pendingChildren += 1
    defer { nextIndex += 1 }
    return nextIndex
  }

  /// Upstream completes: a failure ends it, cancelling every child.
  mutating func receiveOuter(_ completion: Subscribers.Completion<Failure>) -> Action {
    outer = nil
    outerFinished = true
    guard case .failure = completion else { return finishIfDone() }
    return fail(completion, sparing: nil)
  }

  // MARK: Children

  /// Child `index`'s subscription arrives: kept while live, and asked for one value (or
  /// everything, when the demand is unlimited).
  mutating func receiveChild(_ subscription: any Subscription, index: Int) -> Action {
    pendingChildren -= 1
    guard phase == .live else { return .cancel(subscription) }
    children[index] = subscription
    return .request(subscription, demand == .unlimited ? .unlimited : .max(1))
  }

  /// Child `index` sends `value`, in any phase.
  mutating func receiveChild(_ value: Output, index: Int) -> ValueAction {
    if demand == .unlimited { return .deliverUnlimited }
    guard demand > 0, !askingChild else {
      held.append((index, value))
      return .hold
    }
    demand -= 1
    return .deliver
  }

  /// Downstream answered a child's value with `more`.
  mutating func delivered(answering more: Subscribers.Demand) {
    demand += more
  }

  /// Child `index` completes: a failure ends it, cancelling the other children; a finish
  /// forgets the child, and either ends it or asks upstream for one more child.
  mutating func receiveChild(_ completion: Subscribers.Completion<Failure>, index: Int) -> Action {
    guard case .finished = completion else { return fail(completion, sparing: index) }
    children[index] = nil
    let finish = finishIfDone()
    if case .complete = finish { return finish }
    guard maxPublishers != .unlimited, let outer else { return .none }
    return .request(outer, .max(1))
  }

  /// Ends with a failure, cancelling every child but `spared` (upstream failed when it is
  /// `nil`).
  private mutating func fail(_ completion: Subscribers.Completion<Failure>, sparing spared: Int?)
    -> Action
  {
    guard phase == .live else { return .none }
    phase = .ended
    let cancelling = children.filter { $0.key != spared }.map(\.value)
    children = [:]
    defer { held = FIFO() }
    return .complete(
      completion, cancelling: cancelling, afterUpstreamFailed: spared == nil,
      dropped: held.elements.map(\.value))
  }
}
