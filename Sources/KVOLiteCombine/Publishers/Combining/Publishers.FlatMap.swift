extension Publishers {
  /// A publisher that turns each value of its upstream into a publisher and interleaves the
  /// values of those publishers: Combine's `flatMap(maxPublishers:_:)`.
  ///
  /// As Combine's: upstream is asked for `maxPublishers` values at subscription and for one
  /// more each time a child publisher finishes; each child is asked for one value at a time
  /// (or `.unlimited` once downstream asks for unlimited), and a child's value that finds no
  /// demand waits in a buffer. It finishes when upstream and every child have finished and
  /// the buffer is empty, and fails (cancelling the rest) at the first failure. Its
  /// subscription is "FlatMap".
  public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
  where NewPublisher.Failure == Upstream.Failure {
    /// The kind of values this publisher publishes.
    public typealias Output = NewPublisher.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are turned into publishers.
    public let upstream: Upstream
    /// How many child publishers may be subscribed at once.
    public let maxPublishers: Subscribers.Demand
    /// Makes the child publisher for a value.
    public let transform: (Upstream.Output) -> NewPublisher

    /// A publisher of the values of `transform`'s publishers for `upstream`'s values.
    public init(
      upstream: Upstream, maxPublishers: Subscribers.Demand,
      transform: @escaping (Upstream.Output) -> NewPublisher
    ) {
      self.upstream = upstream
      self.maxPublishers = maxPublishers
      self.transform = transform
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = FlatMapInner<Upstream.Output, NewPublisher, S>(
        downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
      subscriber.receive(subscription: inner)
      upstream.subscribe(inner)
    }
  }
}

extension Publisher {
  /// Turns each value into a publisher and interleaves their values; at most `maxPublishers`
  /// of them are subscribed at once.
  ///
  ///     queries.flatMap { query in search(query) }
  ///
  /// Like the forms Apple added later (without `setFailureType`), a disfavored overload, so that
  /// a library's own backfill of one of those wins where both are visible (see the Combine
  /// compatibility article).
  @_disfavoredOverload
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  )
    -> Publishers.FlatMap<P, Self> where P.Failure == Failure
  {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }

  /// ``flatMap(maxPublishers:_:)`` for child publishers that cannot fail: they are given this
  /// publisher's failure type.
  ///
  /// Apple added it after Combine's first release: it is a disfavored overload, so a library's
  /// own backfill of it wins where both are visible (see the Combine compatibility article).
  @_disfavoredOverload
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  )
    -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never
  {
    flatMap(maxPublishers: maxPublishers) { transform($0).setFailureType(to: Failure.self) }
  }
}

extension Publisher where Failure == Never {
  /// ``flatMap(maxPublishers:_:)`` for a publisher that cannot fail and child publishers that
  /// can: this publisher is given their failure type.
  ///
  /// Apple added it after Combine's first release: it is a disfavored overload, so a library's
  /// own backfill of it wins where both are visible (see the Combine compatibility article).
  @_disfavoredOverload
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  )
    -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>>
  {
    setFailureType(to: P.Failure.self).flatMap(maxPublishers: maxPublishers, transform)
  }

  /// ``flatMap(maxPublishers:_:)`` when neither side can fail.
  ///
  /// Apple added it after Combine's first release: it is a disfavored overload, so a library's
  /// own backfill of it wins where both are visible (see the Combine compatibility article).
  @_disfavoredOverload
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  )
    -> Publishers.FlatMap<P, Self> where P.Failure == Never
  {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }
}
