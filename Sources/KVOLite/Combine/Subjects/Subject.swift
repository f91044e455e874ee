/// A publisher that exposes a method for outside callers to publish values: Combine's `Subject`.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
  /// Sends a value to every subscriber that has demand for it.
  func send(_ value: Output)
  /// Sends a completion to every subscriber; later sends do nothing.
  func send(completion: Subscribers.Completion<Failure>)
  /// Receives an upstream subscription when the subject subscribes to a publisher.
  func send(subscription: any Subscription)
}

extension Subject where Output == Void {
  /// Sends `()`.
  public func send() { send(()) }
}

/// The state shared by the subjects (and ``Published``): the subscribers, each with its own
/// demand, the completion, and for current-value subjects the current value.
///
/// Thread-safe. Values are delivered outside the lock; concurrent sends to one subject may reach
/// a subscriber in either order, so senders that care serialize their sends.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`.
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var conduits: [Conduit<Output, Failure>] = []
  @exclusivity(unchecked) @usableFromInline var completion: Subscribers.Completion<Failure>?
  @exclusivity(unchecked) @usableFromInline var upstreams: [any Subscription] = []
  /// The current value, for subjects that have one.
  @exclusivity(unchecked) @usableFromInline var current: Output?

  @inlinable init(current: Output?) {
    self.current = current
  }

  @inlinable var value: Output? { lock.withLock { current } }

  @inlinable func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
    let conduit = TypedConduit(core: self, downstream: subscriber, hasPending: current != nil)
    let finished = lock.withLock { () -> Subscribers.Completion<Failure>? in
      if let completion { return completion }
      conduits.append(conduit)
      return nil
    }
    if let finished {
      subscriber.receive(subscription: EmptySubscription())
      subscriber.receive(completion: finished)
      return
    }
    subscriber.receive(subscription: conduit)
  }

  /// Sends `value`. `storeFirst` is the current-value subjects' order (store, then send);
  /// ``Published`` sends first and stores after, so that subscribers see it "in willSet".
  @inlinable func send(_ value: Output, storeFirst: Bool = true) {
    let targets = lock.withLock { () -> [Conduit<Output, Failure>] in
      guard completion == nil else { return [] }
      if storeFirst, current != nil { current = value }
      return conduits
    }
    for conduit in targets { conduit.offer(value) }
    if !storeFirst { lock.withLock { current = value } }
  }

  @inlinable func send(completion newCompletion: Subscribers.Completion<Failure>) {
    let (targets, upstreams) = lock.withLock {
      () -> ([Conduit<Output, Failure>], [any Subscription]) in
      guard completion == nil else { return ([], []) }
      completion = newCompletion
      defer {
        conduits = []
        self.upstreams = []
      }
      return (conduits, self.upstreams)
    }
    _ = upstreams
    for conduit in targets { conduit.finish(newCompletion) }
  }

  @inlinable func send(subscription: any Subscription) {
    lock.withLock { upstreams.append(subscription) }
    subscription.request(.unlimited)
  }

  @inlinable func remove(_ conduit: Conduit<Output, Failure>) {
    let removed = lock.withLock { () -> Conduit<Output, Failure>? in
      guard let index = conduits.firstIndex(where: { $0 === conduit }) else { return nil }
      return conduits.remove(at: index)
    }
    _ = removed
  }
}

/// One subscriber's subscription to a subject.
@usableFromInline
class Conduit<Output, Failure: Error>: @unchecked Sendable {
  @usableFromInline init() {}

  @inlinable func offer(_ value: Output) {}
  @inlinable func finish(_ completion: Subscribers.Completion<Failure>) {}
}

@usableFromInline
final class TypedConduit<Downstream: Subscriber>: Conduit<Downstream.Input, Downstream.Failure>,
  Subscription, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  @usableFromInline let lock = Lock()
  @usableFromInline let core: SubjectCore<Downstream.Input, Downstream.Failure>
  @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
  @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
  /// A current value is waiting for demand (the one at subscription, or a later one sent while
  /// there was no demand: a current-value subject delivers the latest).
  @exclusivity(unchecked) @usableFromInline var hasPending: Bool

  @inlinable init(core: SubjectCore<Downstream.Input, Downstream.Failure>, downstream: Downstream, hasPending: Bool) {
    self.core = core
    self.downstream = downstream
    self.hasPending = hasPending
  }

  @inlinable func request(_ newDemand: Subscribers.Demand) {
    precondition(newDemand > 0, "a subscriber must request at least one value")
    lock.lock()
    guard let downstream else { return lock.unlock() }
    demand += newDemand
    guard hasPending, demand > 0, let value = core.value else { return lock.unlock() }
    hasPending = false
    demand -= 1
    lock.unlock()
    let more = downstream.receive(value)
    lock.withLock { demand += more }
  }

  @inlinable override func offer(_ value: Downstream.Input) {
    lock.lock()
    guard let downstream else { return lock.unlock() }
    guard demand > 0 else {
      hasPending = core.value != nil
      return lock.unlock()
    }
    demand -= 1
    lock.unlock()
    let more = downstream.receive(value)
    lock.withLock { demand += more }
  }

  @inlinable override func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
    let taken = lock.withLock {
      defer { downstream = nil }
      return downstream
    }
    taken?.receive(completion: completion)
  }

  @inlinable func cancel() {
    let taken = lock.withLock {
      defer { downstream = nil }
      return downstream
    }
    guard taken != nil else { return }
    core.remove(self)
  }
}
