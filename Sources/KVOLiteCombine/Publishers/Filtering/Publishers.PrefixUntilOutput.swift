import KVOLiteLocking

extension Publishers {
  /// A publisher that republishes its upstream's values until another publisher publishes a
  /// value, then finishes (cancelling upstream). Combine's `prefix(untilOutputFrom:)`.
  ///
  /// The other publisher is subscribed first and asked for one value; its completion without
  /// a value changes nothing. Its subscription does not describe itself, as in Combine (see
  /// `PrefixUntilOutputInner`). Thread-safe.
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
      upstream.subscribe(
        PrefixUntilOutputInner<Upstream.Output, Other, S>(downstream: subscriber, other: other))
    }
  }
}

/// The subscription of `prefix(untilOutputFrom:)`, which is also what it subscribes to
/// upstream (as in Combine), with Combine's state machine:
///
/// - the other publisher is subscribed first (when this is made) and asked for one value;
/// - upstream's subscription is handed on downstream, unless the other publisher's value came
///   first (it is then cancelled); values are handed on while subscribed;
/// - the other publisher's first value cancels upstream and finishes downstream (even before
///   upstream's subscription); its completion changes nothing;
/// - upstream's completion cancels the other publisher and is handed on if it came while
///   subscribed; a cancel cancels upstream, then the other publisher.
///
/// Like Combine's, it does not describe itself. It lets go of its subscriber once it has
/// completed or been cancelled (after unlocking). Thread-safe: one state behind one lock.
final class PrefixUntilOutputInner<Input, Other: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription, @unchecked Sendable
where Downstream.Input == Input {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Downstream.Failure

  private var downstream: Downstream?
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var trigger = SubscriptionStatus.awaitingSubscription

  init(downstream: Downstream, other: Other) {
    self.downstream = downstream
    other.subscribe(Trigger(inner: self))
  }

  /// What `prefix(untilOutputFrom:)` subscribes to the other publisher; shares the
  /// subscription's identifier.
  struct Trigger: Subscriber {
    let inner: PrefixUntilOutputInner
    var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }

    func receive(subscription: any Subscription) { inner.receiveTrigger(subscription) }
    func receive(_ input: Other.Output) -> Subscribers.Demand { inner.fire() }
    func receive(completion: Subscribers.Completion<Other.Failure>) {
      inner.lock.withLock { inner.trigger = .terminal }
    }
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard case .awaitingSubscription = status, let downstream else {
      lock.unlock()
      return subscription.cancel()
    }
    status = .subscribed(subscription)
    lock.unlock()
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard status.isSubscribed, let downstream else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
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
}

extension Publisher {
  /// Republishes values until `publisher` publishes one, then finishes.
  public func prefix<P: Publisher>(untilOutputFrom publisher: P)
    -> Publishers.PrefixUntilOutput<Self, P>
  {
    Publishers.PrefixUntilOutput(upstream: self, other: publisher)
  }
}
