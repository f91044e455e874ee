/// The state of a `switchToLatest` subscription (Combine's state machine): upstream's
/// subscription, the latest publisher's, the demand, and where it stands. A value type whose
/// mutating methods are the transitions; each returns what the owner (`SwitchToLatestInner`)
/// must do after unlocking. Not thread-safe: the owner calls it with its lock held.
///
///     phase             | upstream sends a     | upstream      | latest         | latest
///                       | publisher            | finishes      | finishes       | fails
///     ------------------+----------------------+---------------+----------------+-------------
///     running           | cancel the previous, | -> upstream-  | wait           | -> closed;
///                       | subscribe it         | Finished, or  |                | cancel
///                       |                      | -> completed  |                | upstream,
///                       |                      | (none left)   |                | fail
///     upstreamFinished  | ignored              | as above      | -> completed   | as above
///     completed         | ignored              | completed     | ignored        | ignored
///                       |                      | again (*)     |                |
///     closed            | ignored              | ignored       | ignored        | ignored
///
/// Upstream failing fails downstream and cancels the latest publisher (-> completed). A cancel
/// goes to closed from any phase. Only the latest publisher's events count; its value uses one
/// unit of the demand (one nobody asked for traps, as in Combine), and its completion before
/// its subscription traps, as in Combine. Once completed, the latest publisher's values (and
/// (*) upstream's repeated completions) still reach the subscriber while it is alive, as in
/// Combine; once closed, nothing does. Requests add to the demand in every phase.
struct SwitchToLatestStateMachine<Failure: Error> {
  /// Where the subscription stands: `completed` and `closed` are its two ends (downstream has
  /// had, or been sent, its completion; or it was cancelled, or the latest publisher failed).
  enum Phase: Equatable {
    case running
    case upstreamFinished
    case completed
    case closed
  }

  /// The latest publisher's subscription.
  enum Latest {
    case none
    /// Subscribed to, its subscription not yet arrived.
    case awaiting
    case subscribed(any Subscription)
  }

  /// What the owner does after a transition.
  enum Action {
    case none
    /// Request `.unlimited` of upstream's subscription.
    case requestUnlimited(any Subscription)
    /// Cancel a subscription that is not wanted.
    case cancel(any Subscription)
    /// Cancel the previous publisher's subscription (if any), then subscribe to the new one
    /// with the subscriber numbered `index`.
    case switchTo(index: Int, cancelling: (any Subscription)?)
    /// Ask a subscription for `demand`.
    case request(any Subscription, Subscribers.Demand)
    /// Deliver the latest publisher's value, then add what downstream answers
    /// (``delivered(answering:)``).
    case deliver
    /// End downstream (if not yet) and send it `completion`, cancelling `cancelling` first
    /// (once ended, the completion goes to the subscriber if it is still alive).
    case complete(Subscribers.Completion<Failure>, cancelling: [any Subscription])
    /// End downstream (let go of it) and cancel `cancelling`: nothing is sent.
    case end(cancelling: [any Subscription])
    /// Trap: a value nobody asked for, or a completion before the subscription.
    case trap(String)
  }

  private(set) var phase = Phase.running
  private(set) var outer: (any Subscription)?
  private(set) var latest = Latest.none
  /// The number of the latest publisher's subscriber (0: none yet).
  private(set) var latestIndex = 0
  private(set) var nextIndex = 1
  private(set) var demand = Subscribers.Demand.none

  /// Upstream's subscription arrives: taken once (while not closed) and asked for everything.
  mutating func receiveOuter(_ subscription: any Subscription) -> Action {
    guard outer == nil, phase != .closed else { return .cancel(subscription) }
    outer = subscription
    return .requestUnlimited(subscription)
  }

  /// Upstream sends a publisher: while running, it becomes the latest.
  mutating func receiveOuterValue() -> Action {
    guard phase == .running else { return .none }
    let previous = takeLatestSubscription()
    latestIndex = nextIndex
    nextIndex += 1
    latest = .awaiting
    return .switchTo(index: latestIndex, cancelling: previous)
  }

  /// Upstream completes.
  mutating func receiveOuter(_ completion: Subscribers.Completion<Failure>) -> Action {
    outer = nil
    switch phase {
    case .closed: return .none
    case .running: phase = .upstreamFinished
    case .upstreamFinished, .completed: break
    }
    guard case .failure = completion else {
      if case .none = latest {
        phase = .completed
        return .complete(completion, cancelling: [])
      }
      return .none
    }
    phase = .completed
    return .complete(completion, cancelling: takeLatestSubscription().map { [$0] } ?? [])
  }

  /// Downstream asks for more: the demand grows, and the latest publisher is asked.
  mutating func request(_ newDemand: Subscribers.Demand) -> Action {
    demand += newDemand
    guard case .subscribed(let subscription) = latest else { return .none }
    return .request(subscription, newDemand)
  }

  /// Downstream cancels: closed; the latest publisher and upstream are cancelled.
  mutating func cancel() -> Action {
    phase = .closed
    return .end(cancelling: [takeLatestSubscription(), outer.take()].compactMap { $0 })
  }

  /// The subscription of the publisher numbered `index` arrives.
  mutating func receiveLatest(_ subscription: any Subscription, index: Int) -> Action {
    guard index == latestIndex, phase != .closed else { return .cancel(subscription) }
    if case .subscribed = latest { return .cancel(subscription) }
    latest = .subscribed(subscription)
    return demand > 0 ? .request(subscription, demand) : .none
  }

  /// A value of the publisher numbered `index` arrives.
  mutating func receiveLatestValue(index: Int) -> Action {
    guard index == latestIndex, phase != .closed else { return .none }
    guard demand > 0 else {
      return .trap("SwitchToLatest received a value that its subscriber did not request")
    }
    demand -= 1
    return .deliver
  }

  /// Downstream answered a delivery with `more`.
  mutating func delivered(answering more: Subscribers.Demand) {
    demand += more
  }

  /// The publisher numbered `index` completes.
  mutating func receiveLatest(_ completion: Subscribers.Completion<Failure>, index: Int)
    -> Action
  {
    guard index == latestIndex, phase != .closed else { return .none }
    if case .awaiting = latest {
      return .trap("SwitchToLatest received a completion before the subscription")
    }
    latest = .none
    guard case .failure = completion else {
      guard phase == .upstreamFinished else { return .none }
      phase = .completed
      return .complete(completion, cancelling: [])
    }
    guard phase != .completed else { return .none }
    phase = .closed
    return .complete(completion, cancelling: outer.take().map { [$0] } ?? [])
  }

  /// The latest publisher's subscription, let go of (its number stays: its late events still
  /// count).
  private mutating func takeLatestSubscription() -> (any Subscription)? {
    guard case .subscribed(let subscription) = latest else { return nil }
    latest = .none
    return subscription
  }
}
