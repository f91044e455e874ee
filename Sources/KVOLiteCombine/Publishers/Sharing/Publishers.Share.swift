extension Publishers {
  /// A publisher that shares one subscription to its upstream among all its subscribers,
  /// connecting with the first and disconnecting when the last cancels: Combine's `share()`.
  ///
  /// A class (shared by reference): equal only to itself. Values sent before a subscriber
  /// attaches are not replayed to it.
  public final class Share<Upstream: Publisher>: Publisher, Equatable, @unchecked Sendable {
    // @unchecked: immutable after init; the inner publishers are thread-safe.
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher shared.
    public let upstream: Upstream
    private let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

    /// `upstream`, shared.
    public init(upstream: Upstream) {
      self.upstream = upstream
      inner = upstream.multicast(subject: PassthroughSubject()).autoconnect()
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      inner.subscribe(subscriber)
    }

    /// Shares are equal only to themselves.
    public static func == (lhs: Share, rhs: Share) -> Bool { lhs === rhs }
  }
}

extension Publisher {
  /// Shares one subscription to this publisher among all subscribers.
  ///
  ///     let shared = loader.share()  // one load, however many views subscribe
  public func share() -> Publishers.Share<Self> {
    Publishers.Share(upstream: self)
  }
}
