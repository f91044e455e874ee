/// The state of a `buffer` subscription (Combine's state machine): upstream's subscription,
/// the values held, downstream's demand, the completion waiting to go out, and whether a drain
/// is delivering. A value type whose mutating methods are the transitions; each returns what
/// the owner (`BufferInner`) must do after unlocking. Not thread-safe: the owner calls it with
/// its lock held.
///
///     state                | value                | completion      | request     | cancel
///     ---------------------+----------------------+-----------------+-------------+-----------
///     awaitingSubscription | ignored              | ignored         | ignored     | ignored
///     handingOver,         | held (full: dropped  | kept; drain     | demand; and | -> ended;
///     subscribed           | per the strategy);   |                 | drain       | cancel up-
///                          | drain                |                 |             | stream
///     (failed)             | ignored              | ignored         | drain       | as above
///     ended                | ignored              | ignored         | ignored     | ignored
///
/// Upstream's subscription is asked for values before downstream is handed its own, as in
/// Combine (`handingOver` until downstream's `receive(subscription:)` returns); a failure that
/// upstream sends meanwhile waits for the handover, where Combine delivers it first.
///
/// Values leave through the drain, one drain at a time: a drain started while another is
/// delivering (re-entrantly, or from another thread) leaves the work to the running one, which
/// loops until nothing is left to deliver, so values keep their order. A failure goes out as
/// soon as no batch is being delivered, dropping what is held; a finish once the buffer is empty
/// and there is demand. With `keepFull`, each value delivered is asked of upstream again.
struct BufferStateMachine<Input, Failure: Error> {
  /// Where the subscription stands; `ended` (completed or cancelled) is the one end.
  enum State {
    case awaitingSubscription
    /// Upstream is subscribed; downstream is being handed its subscription.
    case handingOver(any Subscription)
    case subscribed(any Subscription)
    case ended
  }

  /// What the owner does after a transition.
  enum Action {
    case none
    /// Cancel a subscription that is not wanted, or upstream's at the end.
    case cancel(any Subscription)
    /// Ask upstream's subscription for `demand` (if more than none), then hand downstream its
    /// subscription.
    case start(any Subscription, Subscribers.Demand)
    /// Drain (``drain()``), returning what to ask upstream for as a value's `receive` result.
    case drain
    /// Run the `customError` closure, then ``madeError(_:)``.
    case makeError
    /// Drain, then ask upstream's subscription for what the drain returns.
    case drainAndRequest(any Subscription)
    /// Let go of downstream and `dropped` after unlocking, then cancel upstream.
    case end(cancelling: any Subscription, dropped: FIFO<Input>)
  }

  /// One step of a drain.
  enum DrainStep {
    /// Deliver `batch`, then ``delivered(count:answering:)``.
    case deliver(batch: [Input])
    /// End downstream and send it `completion`; release `dropped` after unlocking; the drain
    /// is over, asking upstream for `upstreamDemand`.
    case complete(
      Subscribers.Completion<Failure>, dropped: FIFO<Input>, upstreamDemand: Subscribers.Demand)
    /// Nothing more now: the drain is over, asking upstream for `upstreamDemand`.
    case stop(upstreamDemand: Subscribers.Demand)
  }

  let size: Int
  let prefetch: Publishers.PrefetchStrategy
  let whenFull: Publishers.BufferingStrategy<Failure>
  private(set) var state = State.awaitingSubscription
  private(set) var demand = Subscribers.Demand.none
  /// The values held, oldest first.
  private(set) var values = FIFO<Input>()
  /// Upstream's completion (or the buffer's overflow failure), waiting to go out.
  private(set) var terminal: Subscribers.Completion<Failure>?
  /// A drain is delivering a batch: other drains leave the work to it.
  private(set) var draining = false
  /// What the running drain has delivered with `keepFull` (asked of upstream again).
  private(set) var upstreamDemand = Subscribers.Demand.none

  init(
    size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Failure>
  ) {
    self.size = size
    self.prefetch = prefetch
    self.whenFull = whenFull
  }

  /// Upstream's subscription, once taken and until the end.
  private var subscription: (any Subscription)? {
    switch state {
    case .handingOver(let subscription), .subscribed(let subscription): subscription
    case .awaitingSubscription, .ended: nil
    }
  }

  /// Whether upstream failed or the buffer overflowed into a failure.
  private var hasFailed: Bool {
    if case .failure? = terminal { return true }
    return false
  }

  /// Upstream's subscription arrives: taken once; asked for the size (keepFull) or everything.
  mutating func receive(_ subscription: any Subscription) -> Action {
    guard case .awaitingSubscription = state else { return .cancel(subscription) }
    state = .handingOver(subscription)
    switch prefetch {
    case .keepFull: return .start(subscription, size > 0 ? .max(size) : .none)
    case .byRequest: return .start(subscription, .unlimited)
    }
  }

  /// A value arrives: held (a full buffer drops the newest or the oldest, or fails), then the
  /// buffer drains. `dropped` is what the owner releases after unlocking.
  mutating func receive(_ value: Input) -> (Action, dropped: Input?) {
    guard subscription != nil, !hasFailed else { return (.none, nil) }
    var dropped: Input?
    if values.count >= size {
      switch whenFull {
      case .dropNewest: return (.drain, value)
      case .dropOldest: if !values.isEmpty { dropped = values.removeFirst() }
      case .customError: return (.makeError, value)
      }
    }
    if size > 0 { values.append(value) } else { dropped = value }
    return (.drain, dropped)
  }

  /// The `customError` closure made `error`: the failure waits for the next drain (as
  /// Combine's: downstream's next request), and upstream is cancelled.
  mutating func madeError(_ error: Failure) -> Action {
    terminal = .failure(error)
    guard let subscription else { return .none }
    return .cancel(subscription)
  }

  /// Upstream completes: kept (once), then the buffer drains.
  mutating func receive(_ completion: Subscribers.Completion<Failure>) -> Action {
    guard subscription != nil, terminal == nil else { return .none }
    terminal = completion
    return .drain
  }

  /// Downstream asks for `newDemand`.
  mutating func request(_ newDemand: Subscribers.Demand) -> Action {
    guard let subscription else { return .none }
    demand += newDemand
    return .drainAndRequest(subscription)
  }

  /// Downstream cancels: ended; what is held is dropped, and upstream cancelled.
  mutating func cancel() -> Action {
    guard let subscription else { return .none }
    state = .ended
    defer { values = FIFO() }
    return .end(cancelling: subscription, dropped: values)
  }

  /// Downstream has its subscription: a failure that came meanwhile can go out now.
  mutating func handedOver() -> Action {
    guard case .handingOver(let subscription) = state else { return .none }
    state = .subscribed(subscription)
    return hasFailed ? .drain : .none
  }

  /// Starts a drain: `false` if another is delivering (it will do the work).
  mutating func startDrain() -> Bool {
    guard !draining else { return false }
    upstreamDemand = .none
    return true
  }

  /// The next step of a drain that ``startDrain()`` started.
  mutating func drain() -> DrainStep {
    guard subscription != nil else { return .stop(upstreamDemand: upstreamDemand) }
    if demand == .none || values.isEmpty {
      // A failure goes out at once (once downstream has its subscription); a finish once the
      // buffer is empty and there is demand.
      let due: Bool
      switch terminal {
      case .failure?:
        guard case .subscribed = state else { return .stop(upstreamDemand: upstreamDemand) }
        due = true
      case .finished?: due = demand > 0 && values.isEmpty
      case nil: due = false
      }
      guard due, let completion = terminal else { return .stop(upstreamDemand: upstreamDemand) }
      state = .ended
      defer { values = FIFO() }
      return .complete(completion, dropped: values, upstreamDemand: upstreamDemand)
    }
    let count = demand.max.map { Swift.min($0, values.count) } ?? values.count
    demand -= count
    draining = true
    return .deliver(batch: values.removeFirst(count))
  }

  /// The batch of `count` values went out; downstream answered `more` in all.
  mutating func delivered(count: Int, answering more: Subscribers.Demand) {
    draining = false
    demand += more
    if prefetch == .keepFull { upstreamDemand += count }
  }
}
