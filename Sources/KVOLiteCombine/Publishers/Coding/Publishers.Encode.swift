extension Publishers {
  /// A publisher that encodes each value of its upstream with a top-level encoder; an encoding
  /// error cancels upstream and ends the publisher with that error. Its subscription is
  /// "Encode": as in Combine, a value or completion that arrives before upstream's
  /// subscription is handed on, and nothing after the first completion. Thread-safe.
  public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher
  where Upstream.Output: Encodable {
    /// The kind of values this publisher publishes.
    public typealias Output = Coder.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher of values to encode.
    public let upstream: Upstream
    private let encoder: Coder

    /// `upstream`'s values encoded by `encoder`.
    public init(upstream: Upstream, encoder: Coder) {
      self.upstream = upstream
      self.encoder = encoder
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let encoder = self.encoder
      upstream.subscribe(
        CodingInner<Upstream.Output, Upstream.Failure, S>(
          downstream: subscriber, name: "Encode", code: encoder.encode))
    }
  }
}

extension Publisher where Output: Encodable {
  /// Encodes each value with `encoder`.
  public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
    Publishers.Encode(upstream: self, encoder: encoder)
  }
}
