import KVOLiteLocking

extension Publishers {
  /// A publisher that replaces its upstream's failure with a value, then finishes.
  ///
  /// Its subscription ("ReplaceError") keeps count of downstream's demand: the replacement is
  /// sent when upstream fails if downstream has demand left, otherwise on downstream's next
  /// request. A value that downstream did not ask for traps, as in Combine.
  public struct ReplaceError<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never

    /// The value sent in place of a failure.
    public let output: Upstream.Output
    /// The publisher whose failure is replaced.
    public let upstream: Upstream

    /// `upstream`, with a failure replaced by `output`.
    public init(upstream: Upstream, output: Upstream.Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
      upstream.subscribe(
        ReplaceErrorInner<Upstream.Failure, S>(downstream: subscriber, output: output))
    }
  }
}

extension Publishers.ReplaceError: Equatable where Upstream: Equatable, Upstream.Output: Equatable {
}

/// The subscription of `replaceError`.
private final class ReplaceErrorInner<UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Failure == Never {
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Downstream.Input
  typealias Failure = UpstreamFailure

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
  private let output: Input
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var demand = Subscribers.Demand.none
  /// Upstream failed while downstream had no demand: the replacement waits for a request.
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
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard status.isSubscribed, let downstream else {
      lock.unlock()
      return .none
    }
    guard demand > 0 else {
      lock.unlock()
      fatalError("ReplaceError received a value that its subscriber did not request")
    }
    demand -= 1
    lock.unlock()
    let more = downstream.receive(input)
    guard more != .none else { return .none }
    lock.withLock { demand += more }
    return more
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard status.isSubscribed, !replacementPending else { return lock.unlock() }
    if case .failure = completion, demand == .none {
      replacementPending = true
      return lock.unlock()
    }
    status = .terminal
    let downstream = self.downstream.take()
    lock.unlock()
    if case .failure = completion { _ = downstream?.receive(output) }
    downstream?.receive(completion: .finished)
  }

  func request(_ newDemand: Subscribers.Demand) {
    require(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    lock.lock()
    if replacementPending {
      replacementPending = false
      status = .terminal
      let downstream = self.downstream.take()
      lock.unlock()
      _ = downstream?.receive(output)
      downstream?.receive(completion: .finished)
      return
    }
    demand += newDemand
    let subscription = status.subscription
    lock.unlock()
    subscription?.request(newDemand)
  }

  /// As in Combine, a cancel before upstream's subscription does nothing: the subscription,
  /// when it comes, is taken.
  func cancel() {
    let (subscription, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      if case .awaitingSubscription = status { return (nil, nil) }
      defer {
        status = .terminal
        replacementPending = false
      }
      return (status.subscription, self.downstream.take())
    }
    subscription?.cancel()
    _ = downstream
  }

  var description: String { "ReplaceError" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Replaces a failure with `output`, then finishes.
  ///
  ///     loader.replaceError(with: [])
  public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
    Publishers.ReplaceError(upstream: self, output: output)
  }
}
