extension Publishers {
  /// A publisher of all its upstream's values in one array, when it finishes (an empty array if
  /// there were none). Its subscription is "Collect"; its mirror shows the `count` of values
  /// collected so far, as Combine's does.
  public struct Collect<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = [Upstream.Output]
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one reduces.
    public let upstream: Upstream

    /// Collects `upstream`'s values.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        ReducingSubscription(
          downstream: subscriber, name: "Collect", initial: [], mapFailure: { $0 },
          mirrorChildren: { [("count", $0?.count ?? 0)] }
        ) {
          result, value in
          result!.append(value)
          return .continue
        })
    }
  }
}

extension Publisher {
  /// Publishes every value in one array when this publisher finishes. Unbounded: use
  /// `collect(_:)` for long or endless publishers.
  public func collect() -> Publishers.Collect<Self> {
    Publishers.Collect(upstream: self)
  }
}
