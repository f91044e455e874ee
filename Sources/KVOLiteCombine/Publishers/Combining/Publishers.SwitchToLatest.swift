import KVOLiteLocking

extension Publishers {
  /// A publisher of the values of the most recent publisher its upstream published: each new
  /// publisher cancels the previous one. Combine's `switchToLatest()`.
  ///
  /// Upstream is asked for `.unlimited`. Each new publisher is asked for the demand downstream
  /// has left. It finishes when upstream and the current publisher have finished, and fails at
  /// the first failure of either. Its subscription is "SwitchToLatest" (see
  /// `SwitchToLatestInner` for the state machine). Thread-safe.
  public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
  where Upstream.Output == P, P.Failure == Upstream.Failure {
    /// The kind of values this publisher publishes.
    public typealias Output = P.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = P.Failure

    /// The publisher of publishers.
    public let upstream: Upstream

    /// The values of the latest of `upstream`'s publishers.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let outer = SwitchToLatestInner<P, S>(downstream: subscriber)
      subscriber.receive(subscription: outer)
      upstream.subscribe(outer)
    }
  }
}

/// The subscription of `switchToLatest`, which is also what it subscribes to upstream (as in
/// Combine): the storage of a ``SwitchToLatestStateMachine`` (Combine's state machine, described
/// there), behind `lock`. Each method makes one transition with the lock held and performs the
/// action it returns after unlocking; downstream is subscribed first, then upstream, which is
/// asked for `.unlimited`.
///
/// Deliveries are serialized by a recursive lock; nothing is called with `lock` held. The
/// subscriber is let go of at the end, then reached only while it is alive (see
/// ``EndingDownstream``). A request for `.none` traps, as in Combine.
final class SwitchToLatestInner<Child: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Child.Output, Downstream.Failure == Child.Failure {
  // @unchecked: the mutable state is behind `lock`; downstream is called under `delivery`.
  typealias Input = Child
  typealias Failure = Child.Failure
  private typealias Machine = SwitchToLatestStateMachine<Failure>

  private var downstream: EndingDownstream<Downstream>
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var machine = Machine()

  init(downstream: Downstream) {
    self.downstream = EndingDownstream(downstream)
  }

  /// Makes one transition with the lock held; returns its action and the subscriber the action
  /// is for (the one it ends, or the one still alive).
  private func transition(_ body: (inout Machine) -> Machine.Action) -> (
    Machine.Action, Downstream?
  ) {
    lock.lock()
    defer { lock.unlock() }
    let action = body(&machine)
    switch action {
    case .complete: return (action, downstream.end() ?? downstream.reachable)
    case .end: return (action, downstream.end())
    case .deliver: return (action, downstream.reachable)
    default: return (action, nil)
    }
  }

  /// Performs `action`, after unlocking (a value is delivered by its caller).
  private func perform(_ action: Machine.Action, _ subscriber: Downstream?) {
    switch action {
    case .none, .deliver, .switchTo: break
    case .requestUnlimited(let subscription): subscription.request(.unlimited)
    case .cancel(let subscription): subscription.cancel()
    case .request(let subscription, let demand): subscription.request(demand)
    case .complete(let completion, let cancelling):
      for subscription in cancelling { subscription.cancel() }
      guard let subscriber else { return }
      delivery.withLock { subscriber.receive(completion: completion) }
    case .end(let cancelling):
      for subscription in cancelling { subscription.cancel() }
      withExtendedLifetime(subscriber) {}
    case .trap(let message): fatalError(message)
    }
  }

  func receive(subscription: any Subscription) {
    let (action, subscriber) = transition { $0.receiveOuter(subscription) }
    perform(action, subscriber)
  }

  func receive(_ input: Child) -> Subscribers.Demand {
    let (action, _) = transition { $0.receiveOuterValue() }
    guard case .switchTo(let index, let previous) = action else { return .none }
    previous?.cancel()
    input.subscribe(Side(outer: self, index: index))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let (action, subscriber) = transition { $0.receiveOuter(completion) }
    perform(action, subscriber)
  }

  func request(_ newDemand: Subscribers.Demand) {
    require(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    let (action, subscriber) = transition { $0.request(newDemand) }
    perform(action, subscriber)
  }

  func cancel() {
    let (action, subscriber) = transition { $0.cancel() }
    perform(action, subscriber)
  }

  // MARK: The latest publisher

  /// What `switchToLatest` subscribes to each of upstream's publishers; the events of one that
  /// is no longer the latest are ignored.
  struct Side: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
    let outer: SwitchToLatestInner
    let index: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { outer.receiveChild(subscription, index) }
    func receive(_ input: Child.Output) -> Subscribers.Demand { outer.receiveChild(input, index) }
    func receive(completion: Subscribers.Completion<Failure>) {
      outer.receiveChild(completion, index)
    }

    var description: String { "SwitchToLatest" }
    var customMirror: Mirror {
      Mirror(self, children: [("parentSubscription", outer.combineIdentifier)])
    }
    var playgroundDescription: Any { description }
  }

  private func receiveChild(_ subscription: any Subscription, _ index: Int) {
    let (action, subscriber) = transition { $0.receiveLatest(subscription, index: index) }
    perform(action, subscriber)
  }

  private func receiveChild(_ input: Child.Output, _ index: Int) -> Subscribers.Demand {
    // Decided under the delivery lock and delivered under it: a completion decided meanwhile
    // waits for it.
    let (action, more) = delivery.withLock { () -> (Machine.Action, Subscribers.Demand) in
      let (action, subscriber) = transition { $0.receiveLatestValue(index: index) }
      guard case .deliver = action, let subscriber else { return (action, .none) }
      let more = subscriber.receive(input)
      if more > 0 { lock.withLock { machine.delivered(answering: more) } }
      return (action, more)
    }
    if case .trap(let message) = action { fatalError(message) }
    return more
  }

  private func receiveChild(_ completion: Subscribers.Completion<Failure>, _ index: Int) {
    let (action, subscriber) = transition { $0.receiveLatest(completion, index: index) }
    perform(action, subscriber)
  }

  var description: String { "SwitchToLatest" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher where Output: Publisher, Output.Failure == Failure {
  /// Publishes the values of the latest publisher this publisher published, cancelling the
  /// one before.
  ///
  ///     queries.map { search($0) }.switchToLatest()  // only the latest search's results
  ///
  /// Like the forms Apple added later (without `setFailureType`), a disfavored overload, so that
  /// a library's own backfill of one of those wins where both are visible (see the Combine
  /// compatibility article).
  @_disfavoredOverload
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

extension Publisher where Output: Publisher, Failure == Never {
  /// ``switchToLatest()`` when this publisher cannot fail but its publishers can.
  ///
  /// Apple added it after Combine's first release: it is a disfavored overload, so a library's
  /// own backfill of it wins where both are visible (see the Combine compatibility article).
  @_disfavoredOverload
  public func switchToLatest()
    -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>>
  {
    setFailureType(to: Output.Failure.self).switchToLatest()
  }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
  /// ``switchToLatest()`` when neither this publisher nor its publishers can fail.
  ///
  /// Apple added it after Combine's first release: it is a disfavored overload, so a library's
  /// own backfill of it wins where both are visible (see the Combine compatibility article).
  @_disfavoredOverload
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
  /// ``switchToLatest()`` when this publisher can fail but its publishers cannot.
  ///
  /// Apple added it after Combine's first release: it is a disfavored overload, so a library's
  /// own backfill of it wins where both are visible (see the Combine compatibility article).
  @_disfavoredOverload
  public func switchToLatest()
    -> Publishers.SwitchToLatest<
      Publishers.SetFailureType<Output, Failure>,
      Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    >
  {
    map { $0.setFailureType(to: Failure.self) }.switchToLatest()
  }
}
