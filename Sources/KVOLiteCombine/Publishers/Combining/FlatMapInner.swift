import KVOLiteLocking

/// The subscription of `flatMap`: the storage of a ``FlatMapStateMachine`` (Combine's state
/// machine, described there), behind `lock`. Each method makes one transition with the lock
/// held and performs the action it returns after unlocking; deliveries to downstream are
/// serialized by `delivery` (a recursive lock, so that downstream may request from inside its
/// `receive`). Nothing is called with `lock` held. Downstream and the transform are let go of
/// when the subscription ends; as in Combine, a child's value that comes after the end is
/// still handed on, within the demand, to a subscriber that is alive (see
/// ``EndingDownstream``).
final class FlatMapInner<Input, Child: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Child.Output, Downstream.Failure == Child.Failure {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Child.Failure
  private typealias Machine = FlatMapStateMachine<Child.Output, Failure>

  /// The subscriber, until the subscription ends.
  private var downstream: EndingDownstream<Downstream>
  /// Makes a child from an upstream value; let go of when the subscription ends.
  private var transform: ((Input) -> Child)?
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var machine: Machine
  /// The threads cancelling the children because upstream failed.
  private var cancellingChildren = CallingThreads()

  init(
    downstream: Downstream, maxPublishers: Subscribers.Demand, transform: @escaping (Input) -> Child
  ) {
    self.downstream = EndingDownstream(downstream)
    self.transform = transform
    machine = Machine(maxPublishers: maxPublishers)
  }

  /// What an ending action lets go of, to complete or release after unlocking.
  private typealias Ended = (downstream: Downstream?, transform: ((Input) -> Child)?)

  /// Makes one transition with the lock held; returns its action and, when the action ends the
  /// subscription, what it lets go of (marking, after upstream's failure, that this thread
  /// cancels the children).
  private func transition(_ body: (inout Machine) -> Machine.Action) -> (Machine.Action, Ended) {
    lock.lock()
    defer { lock.unlock() }
    let action = body(&machine)
    switch action {
    case .complete(_, _, let afterUpstreamFailed, _):
      if afterUpstreamFailed { cancellingChildren.enter() }
      return (action, (downstream.end(), transform.take()))
    case .end: return (action, (downstream.end(), transform.take()))
    default: return (action, (nil, nil))
    }
  }

  /// Performs `action`, after unlocking.
  private func perform(_ action: Machine.Action, _ ended: Ended) {
    switch action {
    case .none, .makeChild: break
    case .cancel(let subscription): subscription.cancel()
    case .request(let subscription, let demand): subscription.request(demand)
    case .deliverHeld:
      // Each value is taken under the delivery lock and delivered under it: a completion
      // decided meanwhile waits for it.
      while case .deliver(_, let child) = delivery.withLock({
        () -> Machine.HeldStep in
        let step = lock.withLock { machine.nextHeld() }
        guard case .deliver(let value, _) = step else { return step }
        let more = deliver(value)
        lock.withLock { machine.deliveredHeld(answering: more) }
        return step
      }) {
        child?.request(.max(1))
        lock.withLock { machine.askedChild() }
      }
      finishIfDone()
    case .deliverAllHeld(let children):
      while delivery.withLock({ () -> Bool in
        guard let value = lock.withLock({ machine.takeHeld() }) else { return false }
        _ = deliver(value)
        return true
      }) {}
      for child in children { child.request(.unlimited) }
      finishIfDone()
    case .complete(let completion, let cancelling, let afterUpstreamFailed, let dropped):
      for subscription in cancelling { subscription.cancel() }
      if afterUpstreamFailed { lock.withLock { cancellingChildren.leave() } }
      withExtendedLifetime((ended.transform, dropped)) {}
      guard let downstream = ended.downstream else { return }
      delivery.withLock { downstream.receive(completion: completion) }
    case .end(let cancelling, let dropped):
      for subscription in cancelling { subscription.cancel() }
      withExtendedLifetime((ended, dropped)) {}
    }
  }

  /// Finishes downstream if upstream and every child have finished and nothing is held.
  private func finishIfDone() {
    let (action, ended) = transition { $0.finishIfDone() }
    perform(action, ended)
  }

  /// Sends one value downstream, unless the subscription has ended and its subscriber is gone;
  /// returns the demand it answers with.
  private func deliver(_ value: Child.Output) -> Subscribers.Demand {
    delivery.withLock {
      lock.lock()
      guard let downstream = downstream.reachable else {
        lock.unlock()
        return .none
      }
      machine.enterDownstream()
      lock.unlock()
      let more = downstream.receive(value)
      lock.withLock { machine.leaveDownstream() }
      return more
    }
  }

  // MARK: Downstream

  func request(_ newDemand: Subscribers.Demand) {
    require(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    let (action, ended) = transition { $0.request(newDemand) }
    perform(action, ended)
  }

  func cancel() {
    let (action, ended) = transition { $0.cancel() }
    perform(action, ended)
  }

  // MARK: Upstream

  // This object is also what `flatMap` subscribes to upstream, as in Combine.

  func receive(subscription: any Subscription) {
    let (action, ended) = transition { $0.receiveOuter(subscription) }
    perform(action, ended)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let transform = lock.withLock { () -> ((Input) -> Child)? in
      guard case .makeChild = machine.receiveOuterValue() else { return nil }
      return self.transform
    }
    guard let transform else { return .none }
    let child = transform(input)
    let index = lock.withLock { machine.childMade() }
    child.subscribe(ChildSide(index: index, inner: self))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let (action, ended) = transition { machine in
      if cancellingChildren.containsCurrent {
        fatalError(
          "FlatMap received a completion from upstream while cancelling its publishers after "
            + "upstream's failure (Combine traps too)")
      }
      return machine.receiveOuter(completion)
    }
    perform(action, ended)
  }

  // MARK: Children

  /// What `flatMap` subscribes to each child publisher: described as "FlatMap", with the
  /// subscription's identifier in its mirror, as Combine's.
  struct ChildSide: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
    let index: Int
    let inner: FlatMapInner
    let combineIdentifier = CombineIdentifier()

    var description: String { "FlatMap" }
    var customMirror: Mirror {
      Mirror(self, children: [("parentSubscription", inner.combineIdentifier)])
    }
    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) { inner.receiveChild(subscription, index) }
    func receive(_ input: Child.Output) -> Subscribers.Demand { inner.receiveChild(input, index) }
    func receive(completion: Subscribers.Completion<Failure>) {
      inner.receiveChild(completion, index)
    }
  }

  private func receiveChild(_ subscription: any Subscription, _ index: Int) {
    let (action, ended) = transition { $0.receiveChild(subscription, index: index) }
    perform(action, ended)
  }

  private func receiveChild(_ value: Child.Output, _ index: Int) -> Subscribers.Demand {
    // Decided under the delivery lock and delivered under it: a completion decided meanwhile
    // waits for it.
    delivery.withLock {
      switch lock.withLock({ machine.receiveChild(value, index: index) }) {
      case .deliverUnlimited:
        _ = deliver(value)
        return .none
      case .hold:
        return .none
      case .deliver:
        let more = deliver(value)
        if more > 0 { lock.withLock { machine.delivered(answering: more) } }
        return .max(1)
      }
    }
  }

  private func receiveChild(_ completion: Subscribers.Completion<Failure>, _ index: Int) {
    let (action, ended) = transition { $0.receiveChild(completion, index: index) }
    perform(action, ended)
  }

  var description: String { "FlatMap" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
