import KVOLiteLocking

extension Publishers {
  /// A publisher that republishes its upstream's values until another publisher publishes a
  /// value, then finishes (cancelling upstream). Combine's `prefix(untilOutputFrom:)`.
  ///
  /// The other publisher is subscribed first and asked for one value; its completion without
  /// a value changes nothing. Its subscription is "PrefixUntilOutput".
  public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are republished.
    public let upstream: Upstream
    /// The publisher whose first value ends it.
    public let other: Other

    /// `upstream`'s values until `other`'s first value.
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = PrefixUntilOutputInner<Other, S>(downstream: subscriber)
      other.subscribe(PrefixUntilOutputInner.Trigger(inner: inner))
      upstream.subscribe(PrefixUntilOutputInner.UpstreamSide(inner: inner))
    }
  }
}

/// The subscription of `prefix(untilOutputFrom:)`.
final class PrefixUntilOutputInner<Other: Publisher, Downstream: Subscriber>: Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Downstream.Failure

  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var trigger = SubscriptionStatus.awaitingSubscription
  private var triggered = false

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  /// What `prefix(untilOutputFrom:)` subscribes to upstream.
  struct UpstreamSide: Subscriber {
    let inner: PrefixUntilOutputInner
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { inner.receiveUpstream(subscription) }
    func receive(_ input: Downstream.Input) -> Subscribers.Demand { inner.receiveUpstream(input) }
    func receive(completion: Subscribers.Completion<Failure>) { inner.receiveUpstream(completion) }
  }

  /// What `prefix(untilOutputFrom:)` subscribes to the other publisher.
  struct Trigger: Subscriber {
    let inner: PrefixUntilOutputInner
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { inner.receiveTrigger(subscription) }
    func receive(_ input: Other.Output) -> Subscribers.Demand { inner.fire() }
    func receive(completion: Subscribers.Completion<Other.Failure>) {
      inner.lock.withLock { inner.trigger = .terminal }
    }
  }

  private func receiveUpstream(_ subscription: any Subscription) {
    lock.lock()
    guard case .awaitingSubscription = status, let downstream else {
      lock.unlock()
      return subscription.cancel()
    }
    status = triggered ? .terminal : .subscribed(subscription)
    lock.unlock()
    downstream.receive(subscription: self)
  }

  private func receiveUpstream(_ input: Downstream.Input) -> Subscribers.Demand {
    lock.lock()
    guard status.isSubscribed, let downstream else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    return downstream.receive(input)
  }

  private func receiveUpstream(_ completion: Subscribers.Completion<Failure>) {
    let (wasSubscribed, trigger, downstream) = lock.withLock {
      () -> (Bool, (any Subscription)?, Downstream?) in
      defer {
        status = .terminal
        self.trigger = .terminal
      }
      return (status.isSubscribed, self.trigger.subscription, self.downstream.take())
    }
    trigger?.cancel()
    if wasSubscribed { downstream?.receive(completion: completion) }
  }

  private func receiveTrigger(_ subscription: any Subscription) {
    guard lock.withLock({ trigger.accept(subscription) }) else { return subscription.cancel() }
    subscription.request(.max(1))
  }

  private func fire() -> Subscribers.Demand {
    let (live, upstream, downstream) = lock.withLock {
      () -> (Bool, (any Subscription)?, Downstream?) in
      guard trigger.isSubscribed else { return (false, nil, nil) }
      defer {
        status = .terminal
        trigger = .terminal
        triggered = true
      }
      return (true, status.subscription, self.downstream.take())
    }
    guard live else { return .none }
    upstream?.cancel()
    downstream?.receive(completion: .finished)
    return .none
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let (upstream, trigger, downstream) = lock.withLock {
      () -> ((any Subscription)?, (any Subscription)?, Downstream?) in
      defer {
        status = .terminal
        self.trigger = .terminal
      }
      return (status.subscription, self.trigger.subscription, self.downstream.take())
    }
    upstream?.cancel()
    trigger?.cancel()
    _ = downstream
  }

  var description: String { "PrefixUntilOutput" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Republishes values until `publisher` publishes one, then finishes.
  public func prefix<P: Publisher>(untilOutputFrom publisher: P)
    -> Publishers.PrefixUntilOutput<Self, P>
  {
    Publishers.PrefixUntilOutput(upstream: self, other: publisher)
  }
}
