extension Publishers {
  /// A publisher of the number of values its upstream published, when it finishes. Its subscription
  /// is "Count".
  public struct Count<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Int
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one reduces.
    public let upstream: Upstream

    /// Counts `upstream`'s values.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        ReducingSubscription(downstream: subscriber, name: "Count", initial: 0, mapFailure: { $0 })
        {
          result, _ in
          result! += 1
          return .continue
        })
    }
  }
}

extension Publisher {
  /// Publishes how many values this publisher published, when it finishes.
  public func count() -> Publishers.Count<Self> {
    Publishers.Count(upstream: self)
  }
}
