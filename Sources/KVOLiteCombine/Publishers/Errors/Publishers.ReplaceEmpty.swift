import KVOLiteLocking

extension Publishers {
  /// A publisher that sends a value if its upstream finishes without publishing any.
  ///
  /// Its subscription ("ReplaceEmpty") asks upstream for `.unlimited`; the replacement goes
  /// when upstream finishes empty if downstream has asked for values, otherwise on its first
  /// request. A failure is passed on unchanged.
  public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The value sent if upstream publishes none.
    public let output: Output
    /// The publisher that may finish empty.
    public let upstream: Upstream

    /// `upstream`, or `output` if it finishes empty.
    public init(upstream: Upstream, output: Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(ReplaceEmptyInner(downstream: subscriber, output: output))
    }
  }
}

/// The subscription of `replaceEmpty`.
private final class ReplaceEmptyInner<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
  private let output: Input
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var receivedValue = false
  private var downstreamRequested = false
  /// Upstream finished empty before downstream asked: the replacement waits for a request.
  private var replacementPending = false

  init(downstream: Downstream, output: Input) {
    self.downstream = downstream
    self.output = output
  }

  func receive(subscription: any Subscription) {
    guard let downstream = lock.withLock({ status.accept(subscription) ? downstream : nil }) else {
      return subscription.cancel()
    }
    downstream.receive(subscription: self)
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard status.isSubscribed, let downstream else {
      lock.unlock()
      return .none
    }
    receivedValue = true
    lock.unlock()
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard status.isSubscribed else { return lock.unlock() }
    status = .terminal
    guard !receivedValue, case .finished = completion else {
      let downstream = self.downstream.take()
      lock.unlock()
      downstream?.receive(completion: completion)
      return
    }
    guard downstreamRequested else {
      replacementPending = true
      return lock.unlock()
    }
    let downstream = self.downstream.take()
    lock.unlock()
    _ = downstream?.receive(output)
    downstream?.receive(completion: .finished)
  }

  func request(_ demand: Subscribers.Demand) {
    require(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.lock()
    downstreamRequested = true
    if replacementPending {
      replacementPending = false
      let downstream = self.downstream.take()
      lock.unlock()
      _ = downstream?.receive(output)
      downstream?.receive(completion: .finished)
      return
    }
    let subscription = status.subscription
    lock.unlock()
    subscription?.request(demand)
  }

  /// As in Combine, a cancel before upstream's subscription does nothing: the subscription,
  /// when it comes, is taken and asked for values.
  func cancel() {
    let (subscription, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      if case .awaitingSubscription = status { return (nil, nil) }
      replacementPending = false
      defer { status = .terminal }
      return (status.subscription, self.downstream.take())
    }
    subscription?.cancel()
    _ = downstream
  }

  var description: String { "ReplaceEmpty" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Sends `output` if this publisher finishes without publishing any value.
  public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
    Publishers.ReplaceEmpty(upstream: self, output: output)
  }
}
