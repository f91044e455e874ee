extension Publishers {
  /// A publisher of the number of values its upstream published, when it finishes. Its subscription
  /// is "Count".
  public struct Count<Upstream: Publisher>: Publisher {
    public typealias Output = Int
    public typealias Failure = Upstream.Failure

    /// The publisher this one reduces.
    public let upstream: Upstream

    /// Counts `upstream`'s values.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        ReducingSubscription(downstream: subscriber, name: "Count", initial: 0, mapFailure: { $0 }) {
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
