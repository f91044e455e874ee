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
/// Combine), with Combine's state machine:
///
/// - downstream gets this subscription first; upstream is then subscribed and asked for
///   `.unlimited`;
/// - each publisher upstream sends cancels the current one and is subscribed; only the latest
///   one's events count; its subscription is asked for the demand kept here (downstream's
///   requests add to it and reach the current subscription);
/// - a value from the latest publisher uses one unit of the demand (a value nobody asked for
///   traps, as in Combine); its completion before its subscription traps, as in Combine;
/// - upstream's `.finished` finishes downstream once the latest publisher has finished (or at
///   once if there is none, and not while one is being subscribed); a failure of either fails
///   downstream and cancels the other; after that, the latest publisher's values still reach
///   the subscriber while it is alive (see ``EndingDownstream``), as in Combine.
///
/// Deliveries are serialized by a recursive lock; the state is behind `lock` and nothing is
/// called with it held. A request for `.none` traps, as in Combine.
final class SwitchToLatestInner<Child: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Child.Output, Downstream.Failure == Child.Failure {
  // @unchecked: the mutable state is behind `lock`; downstream is called under `delivery`.
  typealias Input = Child
  typealias Failure = Child.Failure

  private var downstream: EndingDownstream<Downstream>
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var outer: (any Subscription)?
  private var current: (any Subscription)?
  private var currentIndex = 0
  private var nextIndex = 1
  private var awaitingCurrent = false
  private var demand = Subscribers.Demand.none
  private var cancelled = false
  private var finished = false
  private var sentCompletion = false

  init(downstream: Downstream) {
    self.downstream = EndingDownstream(downstream)
  }

  /// Sends `completion` to the subscriber, let go of now (or, if it was already, to the one
  /// still alive).
  private func complete(_ completion: Subscribers.Completion<Failure>, ending: Downstream?) {
    guard let downstream = ending ?? lock.withLock({ self.downstream.reachable }) else { return }
    delivery.withLock { downstream.receive(completion: completion) }
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard outer == nil, !cancelled else {
      lock.unlock()
      return subscription.cancel()
    }
    outer = subscription
    lock.unlock()
    subscription.request(.unlimited)
  }

  func receive(_ input: Child) -> Subscribers.Demand {
    lock.lock()
    guard !cancelled, !finished else {
      lock.unlock()
      return .none
    }
    let previous = current.take()
    let index = nextIndex
    currentIndex = index
    nextIndex += 1
    awaitingCurrent = true
    lock.unlock()
    previous?.cancel()
    input.subscribe(Side(outer: self, index: index))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    outer = nil
    finished = true
    guard !cancelled else { return lock.unlock() }
    switch completion {
    case .finished:
      guard !awaitingCurrent, current == nil else { return lock.unlock() }
      sentCompletion = true
      let ending = downstream.end()
      lock.unlock()
      complete(completion, ending: ending)
    case .failure:
      let current = self.current.take()
      sentCompletion = true
      let ending = downstream.end()
      lock.unlock()
      current?.cancel()
      complete(completion, ending: ending)
    }
  }

  func request(_ newDemand: Subscribers.Demand) {
    require(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    let current = lock.withLock { () -> (any Subscription)? in
      demand += newDemand
      return self.current
    }
    current?.request(newDemand)
  }

  func cancel() {
    let (current, outer, ending) = lock.withLock {
      () -> ((any Subscription)?, (any Subscription)?, Downstream?) in
      cancelled = true
      return (self.current.take(), self.outer.take(), downstream.end())
    }
    current?.cancel()
    outer?.cancel()
    withExtendedLifetime(ending) {}
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
    lock.lock()
    guard index == currentIndex, !cancelled, current == nil else {
      lock.unlock()
      return subscription.cancel()
    }
    current = subscription
    awaitingCurrent = false
    let demand = self.demand
    lock.unlock()
    if demand > 0 { subscription.request(demand) }
  }

  private func receiveChild(_ input: Child.Output, _ index: Int) -> Subscribers.Demand {
    lock.lock()
    guard index == currentIndex, !cancelled else {
      lock.unlock()
      return .none
    }
    guard demand > 0 else {
      lock.unlock()
      fatalError("SwitchToLatest received a value that its subscriber did not request")
    }
    demand -= 1
    let downstream = self.downstream.reachable
    lock.unlock()
    guard let downstream else { return .none }
    let more = delivery.withLock { downstream.receive(input) }
    if more > 0 { lock.withLock { demand += more } }
    return more
  }

  private func receiveChild(_ completion: Subscribers.Completion<Failure>, _ index: Int) {
    lock.lock()
    guard index == currentIndex, !cancelled else { return lock.unlock() }
    guard !awaitingCurrent else {
      lock.unlock()
      fatalError("SwitchToLatest received a completion before the subscription")
    }
    current = nil
    switch completion {
    case .finished:
      guard finished, !sentCompletion else { return lock.unlock() }
      sentCompletion = true
      let ending = downstream.end()
      lock.unlock()
      complete(completion, ending: ending)
    case .failure:
      guard !sentCompletion else { return lock.unlock() }
      cancelled = true
      sentCompletion = true
      let (outer, ending) = (self.outer.take(), downstream.end())
      lock.unlock()
      outer?.cancel()
      complete(completion, ending: ending)
    }
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
