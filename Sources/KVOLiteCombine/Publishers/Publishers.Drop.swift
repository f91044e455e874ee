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

/// The subscription of `dropFirst`, with Combine's state machine: values are counted whatever
/// the state, and once the count is used up handed on, even before the subscription and after
/// the end; every completion is handed on (Combine's `Drop` has no end of its own). A
/// completion lets go of upstream's subscription, so a subscription upstream sends after it is
/// taken and asked for the values still to drop plus everything requested meanwhile. When it
/// completes or is cancelled it lets go of its downstream (after unlocking), keeping only a
/// weak reference to it (see ``EndingDownstream``), so a subscriber that keeps this
/// subscription is not kept alive by it.
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
  /// The subscriber once the subscription has ended, weakly (see ``EndingDownstream``: what
  /// Combine forwards after the end still reaches a subscriber that is alive).
  @exclusivity(unchecked) @usableFromInline weak var retired: AnyObject?

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
    require(remaining >= 0, "dropFirst needs a count of zero or more, not \(remaining)")
    let demand = pendingDemand + remaining
    lock.unlock()
    if demand > 0 { subscription.request(demand) }
  }

  @inlinable func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard remaining <= 0 else {
      remaining -= 1
      lock.unlock()
      return .none
    }
    guard downstream.isFull else {
      let retired = self.retired as? Downstream
      lock.unlock()
      return retired?.receive(input) ?? .none
    }
    let downstream = self.downstream.value
    lock.unlock()
    return downstream.receive(input)
  }

  /// Ends, with the lock held: the subscriber let go of (or, after the end, the one still
  /// alive), and upstream's subscription, for the caller to use or release after unlocking.
  @inlinable func end() -> (Downstream?, (any Subscription)?) {
    guard let downstream = downstream.take() else {
      return (retired as? Downstream, upstream.take())
    }
    retired = downstream as AnyObject
    return (downstream, upstream.take())
  }

  @inlinable func receive(completion: Subscribers.Completion<Failure>) {
    let (downstream, subscription) = lock.withLock { end() }
    withExtendedLifetime(subscription) {}
    downstream?.receive(completion: completion)
  }

  @inlinable func request(_ demand: Subscribers.Demand) {
    require(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.lock()
    // As in Combine, what is asked while there is no subscription (before it, or after the
    // end) is kept for the next one upstream sends.
    guard let subscription = upstream else {
      pendingDemand += demand
      return lock.unlock()
    }
    lock.unlock()
    subscription.request(demand)
  }

  @inlinable func cancel() {
    let (downstream, subscription) = lock.withLock { end() }
    subscription?.cancel()
    withExtendedLifetime(downstream) {}
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
