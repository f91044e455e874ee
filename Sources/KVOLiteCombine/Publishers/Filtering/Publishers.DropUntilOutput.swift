import KVOLiteLocking

extension Publishers {
  /// A publisher that ignores its upstream's values until another publisher publishes a value,
  /// then republishes them. Combine's `drop(untilOutputFrom:)`.
  ///
  /// As Combine's: the other publisher is asked for one value; values dropped before it use up
  /// downstream's demand (they are not replaced); if the other publisher completes without a
  /// value, that completion ends this publisher too. Its subscription is "DropUntilOutput".
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
      let inner = DropUntilOutputInner<Other, S>(downstream: subscriber)
      subscriber.receive(subscription: inner)
      other.subscribe(DropUntilOutputInner.Trigger(inner: inner))
      upstream.subscribe(DropUntilOutputInner.UpstreamSide(inner: inner))
    }
  }
}

/// The subscription of `drop(untilOutputFrom:)`.
final class DropUntilOutputInner<Other: Publisher, Downstream: Subscriber>: Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Failure == Other.Failure {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Other.Failure

  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var upstream: (any Subscription)?
  private var trigger: (any Subscription)?
  private var triggered = false
  private var demand = Subscribers.Demand.none
  private var ended = false

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  /// What `drop(untilOutputFrom:)` subscribes to upstream.
  struct UpstreamSide: Subscriber {
    let inner: DropUntilOutputInner
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { inner.receiveUpstream(subscription) }
    func receive(_ input: Downstream.Input) -> Subscribers.Demand { inner.receiveUpstream(input) }
    func receive(completion: Subscribers.Completion<Failure>) { inner.end(with: completion) }
  }

  /// What `drop(untilOutputFrom:)` subscribes to the other publisher.
  struct Trigger: Subscriber {
    let inner: DropUntilOutputInner
    var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }

    func receive(subscription: any Subscription) { inner.receiveTrigger(subscription) }
    func receive(_ input: Other.Output) -> Subscribers.Demand { inner.fire() }
    func receive(completion: Subscribers.Completion<Failure>) { inner.triggerCompleted(completion) }
  }

  private func receiveUpstream(_ subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard upstream == nil, !ended else { return nil }
      upstream = subscription
      return self.demand
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  private func receiveUpstream(_ input: Downstream.Input) -> Subscribers.Demand {
    // Checked and delivered with `delivery` held, so that no value follows the completion.
    delivery.withLock {
      lock.lock()
      guard triggered, let downstream else {
        demand -= 1
        lock.unlock()
        return .none
      }
      lock.unlock()
      return downstream.receive(input)
    }
  }

  func end(with completion: Subscribers.Completion<Failure>) {
    let (downstream, trigger) = lock.withLock { () -> (Downstream?, (any Subscription)?) in
      guard !ended else { return (nil, nil) }
      ended = true
      return (self.downstream.take(), self.trigger.take())
    }
    trigger?.cancel()
    guard let downstream else { return }
    delivery.withLock { downstream.receive(completion: completion) }
  }

  private func receiveTrigger(_ subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard trigger == nil, !ended, !triggered else { return false }
      trigger = subscription
      return true
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(.max(1))
  }

  private func fire() -> Subscribers.Demand {
    let trigger = lock.withLock { () -> (any Subscription)? in
      triggered = true
      return self.trigger.take()
    }
    trigger?.cancel()
    return .none
  }

  private func triggerCompleted(_ completion: Subscribers.Completion<Failure>) {
    guard
      !lock.withLock({ () -> Bool in
        trigger = nil
        return triggered
      })
    else { return }
    let upstream = lock.withLock { self.upstream.take() }
    upstream?.cancel()
    end(with: completion)
  }

  func request(_ newDemand: Subscribers.Demand) {
    precondition(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    let upstream = lock.withLock { () -> (any Subscription)? in
      demand += newDemand
      return self.upstream
    }
    upstream?.request(newDemand)
  }

  func cancel() {
    let (upstream, trigger, downstream) = lock.withLock {
      () -> ((any Subscription)?, (any Subscription)?, Downstream?) in
      ended = true
      return (self.upstream.take(), self.trigger.take(), self.downstream.take())
    }
    upstream?.cancel()
    trigger?.cancel()
    _ = downstream
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
