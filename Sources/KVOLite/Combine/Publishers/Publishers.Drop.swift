extension Publishers {
  /// A publisher that omits a number of values before republishing the rest.
  ///
  /// As in Combine, the subscriber gets its subscription ("Drop") before upstream is subscribed
  /// to; requests made before upstream's subscription arrives are kept and sent up with it,
  /// together with a request for the values to drop, which is made as soon as upstream's
  /// subscription arrives. A negative count traps then, at subscription.
  public struct Drop<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one drops values from.
    public let upstream: Upstream
    /// How many values to drop.
    public let count: Int

    /// A publisher of `upstream`'s values after the first `count`.
    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = DropInner(downstream: subscriber, count: count)
      subscriber.receive(subscription: inner)
      upstream.subscribe(inner)
    }
  }
}

/// The subscription of `dropFirst`. It keeps its downstream for its whole life (as Combine's
/// does), so a subscriber that keeps this subscription lives as long as it.
@usableFromInline
final class DropInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  @usableFromInline typealias Input = Downstream.Input
  @usableFromInline typealias Failure = Downstream.Failure

  @usableFromInline let downstream: Downstream
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
  /// What downstream asked for before upstream's subscription arrived.
  @exclusivity(unchecked) @usableFromInline var pendingDemand = Subscribers.Demand.none
  /// How many values are still to be dropped.
  @exclusivity(unchecked) @usableFromInline var remaining: Int

  @inlinable init(downstream: Downstream, count: Int) {
    self.downstream = downstream
    remaining = count
  }

  @inlinable func receive(subscription: any Subscription) {
    lock.lock()
    guard upstream == nil else {
      lock.unlock()
      return subscription.cancel()
    }
    upstream = subscription
    precondition(remaining >= 0, "dropFirst needs a count of zero or more, not \(remaining)")
    let demand = pendingDemand + remaining
    lock.unlock()
    if demand > 0 { subscription.request(demand) }
  }

  @inlinable func receive(_ input: Input) -> Subscribers.Demand {
    let drop = lock.withLock { () -> Bool in
      guard remaining > 0 else { return false }
      remaining -= 1
      return true
    }
    return drop ? .none : downstream.receive(input)
  }

  @inlinable func receive(completion: Subscribers.Completion<Failure>) {
    let subscription = lock.withLock { upstream.take() }
    _ = subscription
    downstream.receive(completion: completion)
  }

  @inlinable func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.lock()
    guard let subscription = upstream else {
      pendingDemand += demand
      return lock.unlock()
    }
    lock.unlock()
    subscription.request(demand)
  }

  @inlinable func cancel() {
    let subscription = lock.withLock { upstream.take() }
    subscription?.cancel()
  }

  @usableFromInline var description: String { "Drop" }
  @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
  @usableFromInline var playgroundDescription: Any { description }
}

extension Publisher {
  /// Omits the first `count` values (one by default).
  ///
  ///     viewModel.$firstName.dropFirst()  // skips the current value a @Published sends first
  public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
    Publishers.Drop(upstream: self, count: count)
  }
}
