import KVOLiteCombine
import KVOLiteLocking

/// A subscriber that records what it receives and checks Combine's contract as it goes, from
/// any thread: its subscription first and once; values only within the demand it signalled
/// (unless told the publisher ignores demand), in order when given one; at most one completion,
/// and no value after it (unless told the operator forwards some, as Combine's `flatMap` and
/// `switchToLatest` do after a failure); one event at a time (never on two threads at once);
/// after its ``cancel()`` has returned, nothing from a send that started later (see
/// ``willSend(_:)`` and ``willComplete()``: a send already under way on another thread may
/// still deliver, as in Combine); and, when it cancels inside `receive(subscription:)`,
/// nothing at all after that cancel (but the completion that follows ``Subscriptions/empty``
/// from a publisher that had completed), as KVOLite's subjects promise — or inside
/// `receive(_:)`, when told that nothing may come after that either (a publisher that delivers
/// one event at a time from one line, as the serial drain of the operators that hop
/// schedulers).
///
/// Its state is behind an `NSLock`, which is no schedule point of ``ThreadScheduler``'s: the
/// interleavings explored are those of the code under test alone. It never calls the
/// subscription with its lock held. The first breach of the contract is kept in
/// ``violation``.
public final class ContractSubscriber<Input, Failure: Error>: Subscriber, Cancellable,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `state`; the settings are immutable.
  private let initial: Subscribers.Demand
  private let answering: Subscribers.Demand
  private let requestingInside: Subscribers.Demand
  private let cancelsInsideSubscription: Bool
  private let cancelsAtValue: Int?
  private let countsDemand: Bool
  private let inOrder: ((Input, Input) -> Bool)?
  private let valuesAfterCompletion: Bool
  private let state = Locked(ContractState<Input>())

  /// A subscriber that asks for `initial` values from inside `receive(subscription:)` (then
  /// cancels there, if `cancelsInsideSubscription`), answers each value with `answering` and,
  /// from inside `receive(_:)`, requests `requestingInside` more of its subscription (a call
  /// back into the publisher while it delivers). With `cancelsAtValue`, it cancels from inside
  /// the `receive(_:)` of that value (counted from 1), and nothing may come after. `countsDemand:
  /// false` for a publisher that ignores demand (`ObservableObjectPublisher`); `inOrder` tells
  /// whether a value may follow another (nil: any order); `valuesAfterCompletion` allows values
  /// after the completion.
  public init(
    initial: Subscribers.Demand = .unlimited, answering: Subscribers.Demand = .none,
    requestingInside: Subscribers.Demand = .none, cancelsInsideSubscription: Bool = false,
    cancelsAtValue: Int? = nil, countsDemand: Bool = true,
    inOrder: ((Input, Input) -> Bool)? = nil, valuesAfterCompletion: Bool = false
  ) {
    self.initial = initial
    self.answering = answering
    self.requestingInside = requestingInside
    self.cancelsInsideSubscription = cancelsInsideSubscription
    self.cancelsAtValue = cancelsAtValue
    self.countsDemand = countsDemand
    self.inOrder = inOrder
    self.valuesAfterCompletion = valuesAfterCompletion
  }

  /// What it received, in order: "subscription", "value(…)", "finished", "failure(…)".
  public var events: [String] { state.withLock { $0.events } }

  /// The values it received, in order.
  public var values: [Input] { state.withLock { $0.values } }

  /// How many completions it received.
  public var completions: Int { state.withLock { $0.completions } }

  /// Whether it has received its subscription.
  public var isSubscribed: Bool { state.withLock { $0.subscribed } }

  /// Whether its cancel has returned (``cancel()``, or its own inside
  /// `receive(subscription:)`).
  public var cancelHasReturned: Bool { state.withLock { $0.cancelReturned } }

  /// The first breach of the contract, with what it had received then; `nil` while it holds.
  public var violation: String? { state.withLock { $0.violation } }

  /// Call at the start of a send of `value` that may reach it: if its cancel has returned,
  /// `value` must never arrive (values must then be told apart, by value or by description).
  public func willSend(_ value: Input) {
    state.withLock { if $0.cancelReturned { $0.late.append("\(value)") } }
  }

  /// Call at the start of a send of a completion that may reach it: once its cancel has
  /// returned, a completion may arrive only if one such send started before (still under way,
  /// possibly on another thread).
  public func willComplete() {
    state.withLock { state in
      if state.cancelReturned { state.lateCompletions += 1 } else { state.earlyCompletions += 1 }
    }
  }

  /// Asks for `demand` more values (before its subscription: once it comes).
  public func request(_ demand: Subscribers.Demand) {
    let subscription = state.withLock { state -> (any Subscription)? in
      guard let subscription = state.subscription else {
        if !state.subscribed { state.pendingDemand += demand }
        return nil
      }
      state.demand += demand
      return subscription
    }
    subscription?.request(demand)
  }

  /// Cancels its subscription (before its subscription: as soon as it comes, as `sink` does).
  public func cancel() {
    let subscription = state.withLock { state -> (any Subscription)? in
      if !state.subscribed { state.pendingCancel = true }
      return state.subscription.take()
    }
    subscription?.cancel()
    state.withLock { $0.cancelReturned = true }
  }

  /// Records its subscription and asks for the initial demand (or cancels, if asked to).
  public func receive(subscription: any Subscription) {
    let me = ThreadIdentity.current.address
    let demand = state.withLock { state -> Subscribers.Demand? in
      state.enter(me, "subscription")
      if state.subscribed { state.fail("a second subscription") }
      state.subscribed = true
      state.events.append("subscription")
      guard !state.pendingCancel else { return nil }
      state.subscription = subscription
      let demand = initial + state.pendingDemand
      state.pendingDemand = .none
      state.demand += demand
      return demand
    }
    if let demand, demand > 0 { subscription.request(demand) }
    if demand == nil || cancelsInsideSubscription {
      subscription.cancel()
      // Cancelling `Subscriptions.empty` (a publisher that had completed) stops nothing: its
      // completion follows, as in Combine.
      let empty = subscription.combineIdentifier == Subscriptions.empty.combineIdentifier
      state.withLock {
        $0.subscription = nil
        $0.cancelReturned = true
        if cancelsInsideSubscription, !empty { $0.cancelledInside = "receive(subscription:)" }
      }
    }
    state.withLock { $0.leave() }
  }

  /// Records `input`, checked, and answers as it was told to.
  public func receive(_ input: Input) -> Subscribers.Demand {
    let me = ThreadIdentity.current.address
    let event = "value(\(input))"
    let (subscription, cancels) = state.withLock { state -> ((any Subscription)?, Bool) in
      state.enter(me, event)
      state.check(event, valuesAfterCompletion: valuesAfterCompletion)
      if state.late.contains("\(input)") {
        state.fail("\(event) from a send that started after cancel() returned")
      }
      if countsDemand {
        if state.demand == .none { state.fail("\(event) beyond the demand") }
        state.demand = state.demand == .none ? .none : state.demand - 1
      }
      if let inOrder, let last = state.values.last, !inOrder(last, input) {
        state.fail("\(event) out of order")
      }
      state.values.append(input)
      state.events.append(event)
      state.demand += answering
      if state.values.count == cancelsAtValue { return (nil, true) }
      guard requestingInside > 0, let subscription = state.subscription else {
        return (nil, false)
      }
      state.demand += requestingInside
      return (subscription, false)
    }
    subscription?.request(requestingInside)
    if cancels {
      cancel()
      state.withLock { $0.cancelledInside = "receive(_:)" }
    }
    state.withLock { $0.leave() }
    return answering
  }

  /// Records `completion`, checked.
  public func receive(completion: Subscribers.Completion<Failure>) {
    let me = ThreadIdentity.current.address
    let event: String
    switch completion {
    case .finished: event = "finished"
    case .failure(let error): event = "failure(\(error))"
    }
    state.withLock { state in
      state.enter(me, event)
      state.check(event, valuesAfterCompletion: false)
      if state.cancelReturned, state.lateCompletions > 0, state.earlyCompletions == 0 {
        state.fail("\(event) from a send that started after cancel() returned")
      }
      state.completions += 1
      state.events.append(event)
      state.subscription = nil
      state.leave()
    }
  }
}
