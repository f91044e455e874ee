import KVOLiteLocking

/// The subscription of ``Publishers/Buffer``: the storage of a ``BufferStateMachine``
/// (Combine's state machine, described there), behind `lock`. Each method makes one transition
/// with the lock held and performs the action it returns after unlocking; values leave through
/// ``drain()``, one drain at a time. Downstream is let go of once it has its completion, or on
/// cancel.
final class BufferInner<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure
  private typealias Machine = BufferStateMachine<Input, Failure>

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
  private let lock = Lock()
  private var machine: Machine
  /// The threads running the `customError` closure, which Combine calls holding its lock.
  private var makingError = CallingThreads()

  init(
    downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Failure>
  ) {
    self.downstream = downstream
    machine = Machine(size: size, prefetch: prefetch, whenFull: whenFull)
  }

  func receive(subscription: any Subscription) {
    let (action, downstream) = lock.withLock { (machine.receive(subscription), self.downstream) }
    switch action {
    case .cancel(let subscription): subscription.cancel()
    case .start(let subscription, let demand):
      if demand > 0 { subscription.request(demand) }
      downstream?.receive(subscription: self)
      if case .drain = lock.withLock({ machine.handedOver() }) { _ = drain() }
    default: break
    }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    trapIfMakingError()
    let (action, dropped) = machine.receive(input)
    guard case .makeError = action else {
      lock.unlock()
      withExtendedLifetime(dropped) {}  // released after unlocking
      guard case .drain = action else { return .none }
      return drain()
    }
    // As Combine's: the failure waits for the next drain (downstream's next request).
    makingError.enter()
    let whenFull = machine.whenFull
    lock.unlock()
    withExtendedLifetime(dropped) {}
    guard case .customError(let makeError) = whenFull else { return .none }
    let error = makeError()
    let cancelling = lock.withLock { () -> Machine.Action in
      makingError.leave()
      return machine.madeError(error)
    }
    if case .cancel(let subscription) = cancelling { subscription.cancel() }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let action = lock.withLock { () -> Machine.Action in
      trapIfMakingError()
      return machine.receive(completion)
    }
    if case .drain = action { _ = drain() }
  }

  /// With the lock held: traps on an event from upstream sent from inside the `customError`
  /// closure, where Combine, which calls it holding its lock, traps taking the lock again.
  private func trapIfMakingError() {
    guard makingError.containsCurrent else { return }
    fatalError("buffer received an event from inside its customError closure")
  }

  func request(_ newDemand: Subscribers.Demand) {
    guard case .drainAndRequest(let subscription) = lock.withLock({ machine.request(newDemand) })
    else { return }
    let more = drain()
    if more > 0 { subscription.request(more) }
  }

  func cancel() {
    let (action, downstream) = lock.withLock { () -> (Machine.Action, Downstream?) in
      let action = machine.cancel()
      guard case .end = action else { return (action, nil) }
      return (action, self.downstream.take())
    }
    guard case .end(let subscription, let dropped) = action else { return }
    withExtendedLifetime((downstream, dropped)) {}
    subscription.cancel()
  }

  /// Delivers what downstream's demand allows, and a completion when it is due; returns how
  /// many more values to ask upstream for (one per value delivered, when keeping full).
  private func drain() -> Subscribers.Demand {
    lock.lock()
    guard machine.startDrain() else {
      lock.unlock()
      return .none
    }
    while true {
      switch machine.drain() {
      case .stop(let upstreamDemand):
        lock.unlock()
        return upstreamDemand
      case .complete(let completion, let dropped, let upstreamDemand):
        let downstream = self.downstream.take()
        lock.unlock()
        withExtendedLifetime(dropped) {}
        downstream?.receive(completion: completion)
        return upstreamDemand
      case .deliver(let batch):
        let downstream = self.downstream
        lock.unlock()
        var more = Subscribers.Demand.none
        if let downstream { for value in batch { more += downstream.receive(value) } }
        lock.lock()
        machine.delivered(count: batch.count, answering: more)
      }
    }
  }

  var description: String { "Buffer" }
  var customMirror: Mirror {
    let (values, status, demand, terminal) = lock.withLock {
      (machine.values, machine.state, machine.demand, machine.terminal)
    }
    return Mirror(
      self,
      children: [
        ("values", values.elements), ("state", status), ("downstreamDemand", demand),
        ("terminal", terminal as Any),
      ])
  }
  var playgroundDescription: Any { description }
}
