import KVOLiteLocking

extension Publishers {
  /// A publisher of the values of the most recent publisher its upstream published: each new
  /// publisher cancels the previous one. Combine's `switchToLatest()`.
  ///
  /// Upstream is asked for `.unlimited`. Each new publisher is asked for the demand downstream
  /// has left. It finishes when upstream and the current publisher have finished, and fails at
  /// the first failure of either. Its subscription is "SwitchToLatest".
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
      let inner = SwitchToLatestInner<P, S>(downstream: subscriber)
      subscriber.receive(subscription: inner)
      upstream.subscribe(SwitchToLatestInner.UpstreamSide(inner: inner))
    }
  }
}

/// The subscription of `switchToLatest`: one state behind `lock`, deliveries serialized by a
/// recursive lock.
final class SwitchToLatestInner<Child: Publisher, Downstream: Subscriber>: Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Child.Output, Downstream.Failure == Child.Failure {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Child.Failure

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var outer: (any Subscription)?
  private var current: (any Subscription)?
  private var currentIndex = -1
  private var nextIndex = 0
  private var awaitingCurrent = false
  private var demand = Subscribers.Demand.none
  private var outerFinished = false
  private var cancelled = false
  private var completed = false

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  /// Marks the subscription completed, with the lock held: the subscriber, to send the
  /// completion to after unlocking.
  private func complete() -> Downstream? {
    completed = true
    return downstream.take()
  }

  private func send(_ completion: Subscribers.Completion<Failure>, to downstream: Downstream?) {
    guard let downstream else { return }
    delivery.withLock { downstream.receive(completion: completion) }
  }

  // MARK: Upstream

  /// What `switchToLatest` subscribes to upstream.
  struct UpstreamSide: Subscriber {
    let inner: SwitchToLatestInner
    var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }

    func receive(subscription: any Subscription) { inner.receiveOuter(subscription) }
    func receive(_ input: Child) -> Subscribers.Demand { inner.receiveOuter(input) }
    func receive(completion: Subscribers.Completion<Failure>) { inner.receiveOuter(completion) }
  }

  private func receiveOuter(_ subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard outer == nil, !cancelled else { return false }
      outer = subscription
      return true
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(.unlimited)
  }

  private func receiveOuter(_ child: Child) -> Subscribers.Demand {
    let (index, previous) = lock.withLock { () -> (Int?, (any Subscription)?) in
      guard !cancelled, !outerFinished else { return (nil, nil) }
      let previous = current.take()
      currentIndex = nextIndex
      nextIndex += 1
      awaitingCurrent = true
      return (currentIndex, previous)
    }
    previous?.cancel()
    guard let index else { return .none }
    child.subscribe(ChildSide(inner: self, index: index))
    return .none
  }

  private func receiveOuter(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    outer = nil
    outerFinished = true
    guard !cancelled, !completed else { return lock.unlock() }
    switch completion {
    case .finished:
      guard !awaitingCurrent, current == nil else { return lock.unlock() }
      let downstream = complete()
      lock.unlock()
      send(.finished, to: downstream)
    case .failure:
      let downstream = complete()
      let child = current.take()
      lock.unlock()
      child?.cancel()
      send(completion, to: downstream)
    }
  }

  // MARK: Children

  /// What `switchToLatest` subscribes to each of upstream's publishers; events of a replaced
  /// one are ignored.
  struct ChildSide: Subscriber {
    let inner: SwitchToLatestInner
    let index: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { inner.receiveChild(subscription, index) }
    func receive(_ input: Child.Output) -> Subscribers.Demand { inner.receiveChild(input, index) }
    func receive(completion: Subscribers.Completion<Failure>) {
      inner.receiveChild(completion, index)
    }
  }

  private func receiveChild(_ subscription: any Subscription, _ index: Int) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard index == currentIndex, !cancelled, current == nil else { return nil }
      current = subscription
      awaitingCurrent = false
      return self.demand
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  private func receiveChild(_ input: Child.Output, _ index: Int) -> Subscribers.Demand {
    // Checked and delivered with `delivery` held, so that no value follows the completion.
    delivery.withLock {
      lock.lock()
      guard index == currentIndex, !cancelled, let downstream else {
        lock.unlock()
        return .none
      }
      demand -= 1
      lock.unlock()
      let more = downstream.receive(input)
      if more > 0 { lock.withLock { demand += more } }
      return more
    }
  }

  private func receiveChild(_ completion: Subscribers.Completion<Failure>, _ index: Int) {
    lock.lock()
    guard index == currentIndex, !cancelled, !completed else { return lock.unlock() }
    current = nil
    awaitingCurrent = false
    switch completion {
    case .finished:
      guard outerFinished else { return lock.unlock() }
      let downstream = complete()
      lock.unlock()
      send(.finished, to: downstream)
    case .failure:
      let downstream = complete()
      cancelled = true
      let outer = self.outer.take()
      lock.unlock()
      outer?.cancel()
      send(completion, to: downstream)
    }
  }

  // MARK: Downstream

  func request(_ newDemand: Subscribers.Demand) {
    precondition(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    let child = lock.withLock { () -> (any Subscription)? in
      demand += newDemand
      return current
    }
    child?.request(newDemand)
  }

  func cancel() {
    let (child, outer, downstream) = lock.withLock {
      () -> ((any Subscription)?, (any Subscription)?, Downstream?) in
      cancelled = true
      return (current.take(), self.outer.take(), self.downstream.take())
    }
    child?.cancel()
    outer?.cancel()
    _ = downstream
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
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

extension Publisher where Output: Publisher, Failure == Never {
  /// ``switchToLatest()`` when this publisher cannot fail but its publishers can.
  public func switchToLatest()
    -> Publishers.SwitchToLatest<Output, Publishers.SetFailureType<Self, Output.Failure>>
  {
    setFailureType(to: Output.Failure.self).switchToLatest()
  }
}

extension Publisher where Output: Publisher, Failure == Never, Output.Failure == Never {
  /// ``switchToLatest()`` when neither this publisher nor its publishers can fail.
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
  /// ``switchToLatest()`` when this publisher can fail but its publishers cannot.
  public func switchToLatest()
    -> Publishers.SwitchToLatest<
      Publishers.SetFailureType<Output, Failure>,
      Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    >
  {
    map { $0.setFailureType(to: Failure.self) }.switchToLatest()
  }
}
