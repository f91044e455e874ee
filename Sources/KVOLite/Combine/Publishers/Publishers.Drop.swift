extension Publishers {
  /// A publisher that omits a number of values before republishing the rest.
  public struct Drop<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher this one drops values from.
    public let upstream: Upstream
    /// How many values to drop.
    public let count: Int

    public init(upstream: Upstream, count: Int) {
      precondition(count >= 0, "dropFirst needs a count of zero or more")
      self.upstream = upstream
      self.count = count
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(DropInner(downstream: subscriber, count: count))
    }
  }
}

/// The subscription of `dropFirst`: the first downstream request asks upstream for the dropped
/// values too (as Combine does), so that downstream's demand is met after them.
@usableFromInline
final class DropInner<Downstream: Subscriber>: OperatorSubscription<Downstream>, Subscriber,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  @usableFromInline typealias Input = Downstream.Input
  @usableFromInline typealias Failure = Downstream.Failure

  @exclusivity(unchecked) @usableFromInline var remaining: Int
  @exclusivity(unchecked) @usableFromInline var hasRequested = false

  @inlinable init(downstream: Downstream, count: Int) {
    remaining = count
    super.init(downstream: downstream)
  }

  @inlinable func receive(subscription: any Subscription) { accept(subscription) }

  @inlinable func receive(_ input: Input) -> Subscribers.Demand {
    let drop = lock.withLock { () -> Bool? in
      guard status.isSubscribed else { return nil }
      guard remaining > 0 else { return false }
      remaining -= 1
      return true
    }
    switch drop {
    case nil, true?: return .none
    case false?: return downstream.receive(input)
    }
  }

  @inlinable func receive(completion: Subscribers.Completion<Failure>) { finish(completion) }

  @inlinable override func request(_ demand: Subscribers.Demand) {
    let (subscription, upstreamDemand) = lock.withLock { () -> ((any Subscription)?, Subscribers.Demand) in
      guard let subscription = status.subscription else { return (nil, .none) }
      defer { hasRequested = true }
      return (subscription, hasRequested ? demand : demand + remaining)
    }
    subscription?.request(upstreamDemand)
  }
}

extension Publisher {
  /// Omits the first `count` values (one by default).
  ///
  ///     viewModel.$firstName.dropFirst()  // skips the current value a @Published sends first
  public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
    Publishers.Drop(upstream: self, count: count)
  }
}
