import KVOLiteLocking

extension Publishers {
  /// A publisher of its upstream's values in arrays of a fixed size; a shorter last array is
  /// sent when upstream finishes (a failure drops it).
  ///
  /// Downstream's demand is multiplied by the size on its way up. Its subscription is
  /// "CollectByCount".
  public struct CollectByCount<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = [Upstream.Output]
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are collected.
    public let upstream: Upstream
    /// The size of each array.
    public let count: Int

    /// `upstream`'s values in arrays of `count`.
    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        CollectByCountInner<Upstream.Output, S>(downstream: subscriber, count: count))
    }
  }
}

/// The subscription of `collect(_:)`, with Combine's state machine: values are collected while
/// subscribed, and each full batch handed on (the demand answered is multiplied by the batch
/// size); every completion is handed on, even before the subscription and after the end (to a
/// subscriber that is still alive, see ``EndingDownstream``), a `.finished` after the values
/// left; a request for `.none` traps; a cancel drops what was collected. Thread-safe: one
/// state behind one lock; nothing is called with it held.
private final class CollectByCountInner<Input, Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == [Input] {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Downstream.Failure

  /// The subscriber, until the subscription ends.
  private var downstream: EndingDownstream<Downstream>
  private let count: Int
  private let lock = Lock()
  private var upstream: (any Subscription)?
  private var buffer: [Input] = []
  /// Whether it has completed or been cancelled (a subscription that comes later is cancelled).
  private var finished = false

  init(downstream: Downstream, count: Int) {
    self.downstream = EndingDownstream(downstream)
    self.count = count
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard !finished, upstream == nil, let downstream = downstream.live else {
      lock.unlock()
      return subscription.cancel()
    }
    upstream = subscription
    lock.unlock()
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let full = lock.withLock { () -> (Downstream, [Input])? in
      guard upstream != nil, let downstream = downstream.live else { return nil }
      buffer.append(input)
      guard buffer.count == count else { return nil }
      defer { buffer = [] }
      return (downstream, buffer)
    }
    guard let full else { return .none }
    return full.0.receive(full.1) * count
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let (downstream, rest, subscription) = lock.withLock {
      () -> (Downstream?, [Input], (any Subscription)?) in
      finished = true
      defer { buffer = [] }
      return (self.downstream.end() ?? self.downstream.reachable, buffer, upstream.take())
    }
    withExtendedLifetime(subscription) {}
    guard let downstream else { return }
    if case .finished = completion, !rest.isEmpty { _ = downstream.receive(rest) }
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    require(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.withLock { upstream }?.request(demand * count)
  }

  func cancel() {
    let ended = lock.withLock { () -> (any Subscription, Downstream?, [Input])? in
      guard let subscription = upstream.take() else { return nil }
      finished = true
      defer { buffer = [] }
      return (subscription, downstream.end(), buffer)
    }
    // The subscriber and the values collected are released after unlocking.
    ended?.0.cancel()
  }

  var description: String { "CollectByCount" }
  var customMirror: Mirror {
    let (downstream, upstream, buffer) = lock.withLock {
      (self.downstream.reachable, self.upstream, self.buffer)
    }
    return Mirror(
      self,
      children: [
        ("downstream", downstream as Any), ("upstreamSubscription", upstream as Any),
        ("buffer", buffer),
        ("count", count),
      ])
  }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Publishes values in arrays of `count`, and the rest when this publisher finishes.
  ///
  ///     (1...5).publisher.collect(2)  // publishes [1, 2], [3, 4], [5]
  public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
    Publishers.CollectByCount(upstream: self, count: count)
  }
}
