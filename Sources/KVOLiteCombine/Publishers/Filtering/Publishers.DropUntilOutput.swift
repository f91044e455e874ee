import KVOLiteLocking

extension Publishers {
  /// A publisher that ignores its upstream's values until another publisher publishes a value,
  /// then republishes them. Combine's `drop(untilOutputFrom:)`.
  ///
  /// As Combine's: the other publisher is asked for one value; values dropped before it use up
  /// downstream's demand (they are not replaced); if the other publisher completes without a
  /// value, that completion ends this publisher too. Its subscription is "DropUntilOutput"
  /// (see `DropUntilOutputInner` for the whole state machine). Thread-safe.
  public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
  where Upstream.Failure == Other.Failure {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are republished once triggered.
    public let upstream: Upstream
    /// The publisher whose first value triggers.
    public let other: Other

    /// `upstream`'s values after `other`'s first value.
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = DropUntilOutputInner<Upstream.Output, Other, S>(downstream: subscriber)
      subscriber.receive(subscription: inner)
      other.subscribe(DropUntilOutputInner.OtherSide(inner: inner))
      upstream.subscribe(inner)
    }
  }
}

/// The subscription of `drop(untilOutputFrom:)`, which is also what it subscribes to
/// upstream (as in Combine), with Combine's state machine:
///
/// - downstream gets this subscription first; then the other publisher is subscribed and asked
///   for one value; then upstream is subscribed and asked for what downstream asked for so far
///   (requests, `.none` included, go to upstream once it is subscribed);
/// - until the other publisher's first value, upstream's values are dropped, each using up one
///   unit of the demand (a value nobody asked for traps, as in Combine); after it, they are
///   handed on as they come;
/// - the other publisher's completion before its first value cancels upstream and is handed on
///   (each time it comes, as in Combine); after its first value, it is ignored;
/// - upstream's first completion is handed on; a cancel cancels upstream, then the other
///   publisher, and a subscription that arrives later is cancelled.
///
/// Events after the end reach the subscriber while it is alive (see ``EndingDownstream``).
/// Calls to downstream are serialized by a recursive lock; the state is behind `lock`, and
/// nothing is called with it held. Thread-safe.
final class DropUntilOutputInner<Input, Other: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Input, Downstream.Failure == Other.Failure {
  // @unchecked: the mutable state is behind `lock`; downstream is called under `delivery`.
  typealias Failure = Other.Failure

  private var downstream: EndingDownstream<Downstream>
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var upstream: (any Subscription)?
  private var other: (any Subscription)?
  private var triggered = false
  private var pendingDemand = Subscribers.Demand.none
  private var cancelled = false

  init(downstream: Downstream) {
    self.downstream = EndingDownstream(downstream)
  }

  /// What `drop(untilOutputFrom:)` subscribes to the other publisher; shares the subscription's
  /// identifier.
  struct OtherSide: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
    let inner: DropUntilOutputInner
    var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }
    var description: String { "DropUntilOutput" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) { inner.receiveOther(subscription) }
    func receive(_ input: Other.Output) -> Subscribers.Demand { inner.receiveOther(input) }
    func receive(completion: Subscribers.Completion<Failure>) { inner.receiveOther(completion) }
  }

  /// Hands `completion` on: to the subscriber, let go of now if the operator had not ended, or
  /// to the one still alive.
  private func deliver(_ completion: Subscribers.Completion<Failure>, ending: Downstream?) {
    guard let downstream = ending ?? lock.withLock({ self.downstream.reachable }) else { return }
    delivery.withLock { downstream.receive(completion: completion) }
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard upstream == nil, !cancelled else {
      lock.unlock()
      return subscription.cancel()
    }
    upstream = subscription
    let demand = pendingDemand
    lock.unlock()
    if demand > 0 { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard triggered, !cancelled else {
      guard pendingDemand > 0 else {
        lock.unlock()
        fatalError("DropUntilOutput received a value that its subscriber did not request")
      }
      pendingDemand -= 1
      lock.unlock()
      return .none
    }
    let downstream = self.downstream.reachable
    lock.unlock()
    guard let downstream else { return .none }
    return delivery.withLock { downstream.receive(input) }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard !cancelled else { return lock.unlock() }
    cancelled = true
    let ending = downstream.end()
    lock.unlock()
    deliver(completion, ending: ending)
  }

  private func receiveOther(_ subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard other == nil else { return false }
      other = subscription
      return true
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(.max(1))
  }

  private func receiveOther(_ input: Other.Output) -> Subscribers.Demand {
    let subscription = lock.withLock { () -> (any Subscription)? in
      triggered = true
      return other.take()
    }
    withExtendedLifetime(subscription) {}
    return .none
  }

  private func receiveOther(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard !triggered else {
      let subscription = other.take()
      lock.unlock()
      return withExtendedLifetime(subscription) {}
    }
    let (upstream, ending) = (self.upstream.take(), downstream.end())
    lock.unlock()
    upstream?.cancel()
    deliver(completion, ending: ending)
  }

  func request(_ demand: Subscribers.Demand) {
    let upstream = lock.withLock { () -> (any Subscription)? in
      pendingDemand += demand
      return self.upstream
    }
    upstream?.request(demand)
  }

  func cancel() {
    let (upstream, other, ending) = lock.withLock {
      () -> ((any Subscription)?, (any Subscription)?, Downstream?) in
      cancelled = true
      return (self.upstream.take(), self.other.take(), downstream.end())
    }
    upstream?.cancel()
    other?.cancel()
    withExtendedLifetime(ending) {}
  }

  var description: String { "DropUntilOutput" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Ignores values until `publisher` publishes one, then republishes every value.
  public func drop<P: Publisher>(untilOutputFrom publisher: P)
    -> Publishers.DropUntilOutput<Self, P>
  where P.Failure == Failure {
    Publishers.DropUntilOutput(upstream: self, other: publisher)
  }
}
