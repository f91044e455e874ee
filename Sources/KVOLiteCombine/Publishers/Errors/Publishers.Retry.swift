import KVOLiteLocking

extension Publishers {
  /// A publisher that subscribes to its upstream again when it fails, up to a number of times
  /// (or forever), asking the new subscription for the demand downstream has left.
  ///
  /// Downstream receives one subscription ("Retry") for all the attempts. After the last
  /// attempt fails, the failure is passed on. Thread-safe.
  public struct Retry<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher subscribed to again.
    public let upstream: Upstream
    /// How many times to subscribe again; `nil` or a negative number for no limit (as in
    /// Combine, which counts a negative number down without reaching zero).
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
      upstream.subscribe(RetryInner(upstream: upstream, downstream: subscriber, retries: retries))
    }
  }
}

/// The subscription of `retry`, which is also what it subscribes to upstream for every attempt
/// (as in Combine), with Combine's state machine:
///
/// - downstream gets this subscription with the first attempt's subscription; each later
///   attempt's subscription is asked for the demand downstream has left;
/// - a value uses one unit of that demand (a value nobody asked for traps, as in Combine); the
///   demand downstream answers with is requested from upstream, not returned;
/// - a failure subscribes again while attempts are left: a count of `n` allows `n` more, a
///   negative count never runs out, `nil` is unlimited; an attempt that fails while it is being
///   subscribed is retried once that subscribe returns (no deeper recursion);
/// - a `.finished`, even one sent while an attempt is being subscribed, ends it; so does the
///   last failure, and a cancel (which cancels the current attempt). After the end, events are
///   ignored and it lets go of its subscriber and the upstream publisher (after unlocking).
///
/// Thread-safe: one state behind one lock; nothing is called with it held.
private final class RetryInner<Upstream: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let lock = Lock()
  /// The publisher to subscribe again, and the subscriber, until the end.
  private var upstream: Upstream?
  private var downstream: Downstream?
  private var subscription: (any Subscription)?
  /// Attempts left; `nil` for no limit (a negative count counts down without reaching zero).
  private var remaining: Int?
  private var downstreamNeedsSubscription = true
  private var demand = Subscribers.Demand.none
  /// Whether an attempt is being subscribed (a failure meanwhile only asks for another).
  private var subscribing = false
  private var needsSubscribe = false

  init(upstream: Upstream, downstream: Downstream, retries: Int?) {
    self.upstream = upstream
    self.downstream = downstream
    remaining = retries
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard let downstream, self.subscription == nil else {
      lock.unlock()
      return subscription.cancel()
    }
    self.subscription = subscription
    let needsSubscription = downstreamNeedsSubscription
    downstreamNeedsSubscription = false
    let demand = self.demand
    lock.unlock()
    if needsSubscription { downstream.receive(subscription: self) }
    if demand > 0 { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard let downstream else {
      lock.unlock()
      return .none
    }
    guard demand > 0 else {
      lock.unlock()
      fatalError("Retry received a value that its subscriber did not request")
    }
    demand -= 1
    lock.unlock()
    let more = downstream.receive(input)
    guard more > 0 else { return .none }
    let subscription = lock.withLock { () -> (any Subscription)? in
      guard self.downstream != nil else { return nil }
      demand += more
      return self.subscription
    }
    subscription?.request(more)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard downstream != nil else { return lock.unlock() }
    if case .failure = completion, remaining != 0 {
      subscription = nil
      remaining = remaining.map { $0 &- 1 }
      guard !subscribing else {
        needsSubscribe = true
        return lock.unlock()
      }
      repeat {
        subscribing = true
        needsSubscribe = false
        let upstream = self.upstream
        lock.unlock()
        upstream?.subscribe(self)
        lock.lock()
        subscribing = false
      } while needsSubscribe && downstream != nil
      return lock.unlock()
    }
    let (downstream, upstream, subscription) = end()
    lock.unlock()
    withExtendedLifetime((upstream, subscription)) {}
    downstream?.receive(completion: completion)
  }

  /// Ends, with the lock held: what was let go of, for the caller to complete or release
  /// after unlocking.
  private func end() -> (Downstream?, Upstream?, (any Subscription)?) {
    (downstream.take(), upstream.take(), subscription.take())
  }

  func request(_ newDemand: Subscribers.Demand) {
    let subscription = lock.withLock { () -> (any Subscription)? in
      guard downstream != nil else { return nil }
      demand += newDemand
      return self.subscription
    }
    subscription?.request(newDemand)
  }

  func cancel() {
    let (downstream, upstream, subscription) = lock.withLock { end() }
    subscription?.cancel()
    withExtendedLifetime((downstream, upstream)) {}
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
