import KVOLiteLocking

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

/// The subscription of `dropFirst`. When it completes or is cancelled it lets go of its
/// downstream (after unlocking), so a subscriber that keeps this subscription is not kept
/// alive by it.
@usableFromInline
final class DropInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  @usableFromInline typealias Input = Downstream.Input
  @usableFromInline typealias Failure = Downstream.Failure

  @usableFromInline let lock = Lock()
  /// The subscriber, until the subscription ends.
  @usableFromInline let downstream: Slot<Downstream>
  @exclusivity(unchecked) @usableFromInline var upstream: (any Subscription)?
  /// What downstream asked for before upstream's subscription arrived.
  @exclusivity(unchecked) @usableFromInline var pendingDemand = Subscribers.Demand.none
  /// How many values are still to be dropped.
  @exclusivity(unchecked) @usableFromInline var remaining: Int

  @inlinable init(downstream: Downstream, count: Int) {
    self.downstream = Slot(downstream)
    remaining = count
  }

  @inlinable func receive(subscription: any Subscription) {
    lock.lock()
    // As in Combine, a cancel before upstream's subscription does not stop it being taken
    // (the next cancel cancels it).
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
    lock.lock()
    guard downstream.isFull, remaining == 0 else {
      if remaining > 0 { remaining -= 1 }
      lock.unlock()
      return .none
    }
    let downstream = self.downstream.value
    lock.unlock()
    return downstream.receive(input)
  }

  @inlinable func receive(completion: Subscribers.Completion<Failure>) {
    let (subscription, downstream) = lock.withLock { (upstream.take(), self.downstream.take()) }
    _ = subscription
    downstream?.receive(completion: completion)
  }

  @inlinable func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.lock()
    guard let subscription = upstream else {
      if downstream.isFull { pendingDemand += demand }
      return lock.unlock()
    }
    lock.unlock()
    subscription.request(demand)
  }

  @inlinable func cancel() {
    let (subscription, downstream) = lock.withLock { (upstream.take(), self.downstream.take()) }
    subscription?.cancel()
    _ = downstream
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
