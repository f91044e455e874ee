/// The state of a `zip` subscription over any number of upstreams (Combine's state machine):
/// each upstream's subscription, whether it finished, and its values waiting for a tuple, the
/// demand raised while a tuple is delivered, and whether the subscription has ended. A value
/// type whose mutating methods are the transitions; each returns what the owner (`ZipInner`)
/// must do after unlocking. Not thread-safe: the owner calls it with its lock held.
///
///     phase | subscription      | value              | finished       | failure       | cancel
///     ------+-------------------+--------------------+----------------+---------------+--------
///     live  | kept (the last    | queued; a tuple    | marked; ends   | -> ended;     | -> ended;
///           | hands downstream  | once every queue   | when its queue | fail, cancel  | cancel
///           | its subscription) | has one            | is empty       | every one     | all
///     ended | cancelled         | ignored            | ignored        | ignored       | again
///
/// Downstream's demand is asked of every upstream, except that while a tuple is delivered what
/// downstream requests goes back to the upstream whose value completed the tuple as that
/// value's `receive` result (with the demand downstream answers, which the other upstreams are
/// asked for). It finishes when an upstream has finished and its queue is empty (no more
/// tuples are possible), cancelling the others.
struct ZipStateMachine<Failure: Error> {
  /// Whether downstream is still attached; `ended` (completed or cancelled) is the one end.
  enum Phase: Equatable {
    case live
    case ended
  }

  /// One upstream.
  struct Upstream {
    var subscription: (any Subscription)?
    var finished = false
    /// Its values not yet in a tuple, type-erased (the owner knows their types).
    var queue = FIFO<Any>()
  }

  /// What the owner does after a transition.
  enum Action {
    case none
    /// Cancel a subscription that is not wanted.
    case cancel(any Subscription)
    /// Every upstream has subscribed: hand downstream its subscription.
    case handOverSubscription
    /// Make a tuple of `values` and deliver it; then ``delivered()``, and ask `others` for
    /// what downstream answered.
    case deliver(values: [Any], others: [any Subscription])
    /// Ask each of `subscriptions` for `demand`.
    case request([any Subscription], Subscribers.Demand)
    /// End downstream and send it `completion`, then cancel `cancelling`; `dropped` (values
    /// that make no tuple) is released after unlocking.
    case complete(
      Subscribers.Completion<Failure>, cancelling: [any Subscription], dropped: [FIFO<Any>])
    /// End downstream (let go of it) and cancel `cancelling`; release `dropped`.
    case end(cancelling: [any Subscription], dropped: [FIFO<Any>])
  }

  private(set) var phase = Phase.live
  private(set) var upstreams: [Upstream]
  private(set) var subscribedCount = 0
  /// The upstream whose value completed the tuple being delivered, and what downstream has
  /// requested meanwhile.
  private(set) var delivering: Int?
  private(set) var raisedWhileDelivering = Subscribers.Demand.none

  /// A machine for `count` upstreams.
  init(count: Int) {
    upstreams = Array(repeating: Upstream(), count: count)
  }

  /// Upstream `index`'s subscription arrives.
  mutating func receive(_ subscription: any Subscription, index: Int) -> Action {
    guard phase == .live, upstreams[index].subscription == nil else {
      return .cancel(subscription)
    }
    upstreams[index].subscription = subscription
    subscribedCount += 1
    return subscribedCount == upstreams.count ? .handOverSubscription : .none
  }

  /// Upstream `index` sends `value`: queued, and a tuple made once every queue has a value.
  mutating func receive(_ value: Any, index: Int) -> Action {
    guard phase == .live else { return .none }
    upstreams[index].queue.append(value)
    guard upstreams.allSatisfy({ !$0.queue.isEmpty }) else { return .none }
    let values = upstreams.indices.map { upstreams[$0].queue.removeFirst() }
    delivering = index
    return .deliver(values: values, others: subscriptions(except: index))
  }

  /// The tuple has been delivered: returns what downstream requested meanwhile (which goes
  /// back as the value's `receive` result).
  mutating func delivered() -> Subscribers.Demand {
    defer {
      delivering = nil
      raisedWhileDelivering = .none
    }
    return raisedWhileDelivering
  }

  /// Upstream `index` completes.
  mutating func receive(_ completion: Subscribers.Completion<Failure>, index: Int) -> Action {
    guard case .failure = completion else {
      upstreams[index].finished = true
      return finishIfExhausted()
    }
    guard phase == .live else { return .none }
    phase = .ended
    // As Combine's: every upstream is cancelled, the one that failed too.
    return .complete(completion, cancelling: takeSubscriptions { _ in true }, dropped: takeQueues())
  }

  /// Ends if an upstream has finished with nothing left in its queue: no more tuples.
  mutating func finishIfExhausted() -> Action {
    guard phase == .live, upstreams.contains(where: { $0.finished && $0.queue.isEmpty }) else {
      return .none
    }
    phase = .ended
    let cancelling = takeSubscriptions { !$0.finished }
    return .complete(.finished, cancelling: cancelling, dropped: takeQueues())
  }

  /// Downstream asks for `demand`: every upstream is asked, but the one whose value is being
  /// delivered, which gets it back as that value's result.
  mutating func request(_ demand: Subscribers.Demand) -> Action {
    guard phase == .live else { return .none }
    guard let delivering else { return .request(subscriptions(except: nil), demand) }
    raisedWhileDelivering += demand
    return .request(subscriptions(except: delivering), demand)
  }

  /// Downstream cancels: every upstream is cancelled.
  mutating func cancel() -> Action {
    phase = .ended
    return .end(cancelling: takeSubscriptions { _ in true }, dropped: takeQueues())
  }

  private func subscriptions(except index: Int?) -> [any Subscription] {
    upstreams.indices.compactMap { $0 == index ? nil : upstreams[$0].subscription }
  }

  /// Lets go of the subscriptions, returning those of the upstreams `which` selects.
  private mutating func takeSubscriptions(_ which: (Upstream) -> Bool) -> [any Subscription] {
    var taken: [any Subscription] = []
    for index in upstreams.indices {
      let selected = which(upstreams[index])
      if let subscription = upstreams[index].subscription.take(), selected {
        taken.append(subscription)
      }
    }
    return taken
  }

  /// Lets go of the queued values, returning them (to release after unlocking).
  private mutating func takeQueues() -> [FIFO<Any>] {
    defer { for index in upstreams.indices { upstreams[index].queue = FIFO() } }
    return upstreams.map(\.queue)
  }
}
