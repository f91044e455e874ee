import KVOLiteLocking

extension Publishers {
  /// A publisher that subscribes to its upstream again when it fails, up to a number of times
  /// (or forever), asking the new subscription for the demand downstream has left.
  ///
  /// Downstream receives one subscription ("Retry") for all the attempts. After the last
  /// attempt fails, the failure is passed on.
  public struct Retry<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher subscribed to again.
    public let upstream: Upstream
    /// How many times to subscribe again; `nil` for no limit.
    public let retries: Int?

    /// `upstream`, subscribed to again up to `retries` times after failures.
    public init(upstream: Upstream, retries: Int?) {
      self.upstream = upstream
      self.retries = retries
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      RetryInner(upstream: upstream, downstream: subscriber, retries: retries).start()
    }
  }
}

/// The subscription of `retry`.
private final class RetryInner<Upstream: Publisher, Downstream: Subscriber>: Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  // @unchecked: the mutable state is behind `lock`.
  private let upstream: Upstream
  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  private let lock = Lock()
  /// Attempts left; `nil` for no limit.
  private var retries: Int?
  private var subscription: (any Subscription)?
  private var attempt = 0
  private var demand = Subscribers.Demand.none
  private var handedDownstream = false
  private var ended = false

  /// What a completion of an attempt leads to: another attempt, or the completion of the
  /// subscriber let go of.
  private enum Next {
    case again
    case complete(Downstream?)
    case nothing
  }

  init(upstream: Upstream, downstream: Downstream, retries: Int?) {
    self.upstream = upstream
    self.downstream = downstream
    self.retries = retries
  }

  func start() {
    let current = lock.withLock { attempt }
    upstream.subscribe(Side(inner: self, attempt: current))
  }

  /// What `retry` subscribes to upstream, once per attempt; events of an old attempt are
  /// ignored.
  struct Side: Subscriber {
    let inner: RetryInner
    let attempt: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { inner.receive(subscription, attempt) }
    func receive(_ input: Upstream.Output) -> Subscribers.Demand { inner.receive(input, attempt) }
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      inner.receive(completion, attempt)
    }
  }

  private func receive(_ subscription: any Subscription, _ attempt: Int) {
    lock.lock()
    guard !ended, attempt == self.attempt, self.subscription == nil, let downstream else {
      lock.unlock()
      return subscription.cancel()
    }
    self.subscription = subscription
    let first = !handedDownstream
    handedDownstream = true
    let demand = self.demand
    lock.unlock()
    if first {
      downstream.receive(subscription: self)
    } else if demand > 0 {
      subscription.request(demand)
    }
  }

  private func receive(_ input: Upstream.Output, _ attempt: Int) -> Subscribers.Demand {
    lock.lock()
    guard !ended, attempt == self.attempt, let downstream else {
      lock.unlock()
      return .none
    }
    demand -= 1
    lock.unlock()
    let more = downstream.receive(input)
    lock.withLock { demand += more }
    return more
  }

  private func receive(_ completion: Subscribers.Completion<Upstream.Failure>, _ attempt: Int) {
    let next = lock.withLock { () -> Next in
      guard !ended, attempt == self.attempt else { return .nothing }
      subscription = nil
      if case .failure = completion, retries.map({ $0 > 0 }) ?? true {
        retries = retries.map { $0 - 1 }
        self.attempt += 1
        return .again
      }
      ended = true
      return .complete(downstream.take())
    }
    switch next {
    case .again: start()
    case .complete(let downstream): downstream?.receive(completion: completion)
    case .nothing: break
    }
  }

  func request(_ newDemand: Subscribers.Demand) {
    precondition(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    let subscription = lock.withLock { () -> (any Subscription)? in
      guard !ended else { return nil }
      demand += newDemand
      return self.subscription
    }
    subscription?.request(newDemand)
  }

  func cancel() {
    let (subscription, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      guard !ended else { return (nil, nil) }
      ended = true
      return (self.subscription.take(), self.downstream.take())
    }
    subscription?.cancel()
    _ = downstream
  }

  var description: String { "Retry" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Subscribes to this publisher again when it fails, up to `retries` times, then passes the
  /// failure on.
  ///
  ///     loader.retry(2)  // three attempts in all
  public func retry(_ retries: Int) -> Publishers.Retry<Self> {
    Publishers.Retry(upstream: self, retries: retries)
  }
}
