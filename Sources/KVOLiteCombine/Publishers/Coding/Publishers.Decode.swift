extension Publishers {
  /// A publisher that decodes each value of its upstream with a top-level decoder; a decoding
  /// error cancels upstream and ends the publisher with that error. Its subscription is
  /// "Decode": as in Combine, a value or completion that arrives before upstream's
  /// subscription is handed on, and nothing after the first completion. Thread-safe.
  public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
  where Upstream.Output == Coder.Input {
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher of encoded values.
    public let upstream: Upstream
    private let decoder: Coder

    /// `upstream`'s values decoded as `Output` by `decoder`.
    public init(upstream: Upstream, decoder: Coder) {
      self.upstream = upstream
      self.decoder = decoder
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let decoder = self.decoder
      upstream.subscribe(
        CodingInner<Upstream.Output, Upstream.Failure, S>(downstream: subscriber, name: "Decode") {
          try decoder.decode(Output.self, from: $0)
        })
    }
  }
}

extension Publisher {
  /// Decodes each value as `type` with `decoder`.
  ///
  ///     session.dataTaskPublisher(for: url).map(\.data).decode(type: [Book].self, decoder: JSONDecoder())
  public func decode<Item: Decodable, Coder: TopLevelDecoder>(type: Item.Type, decoder: Coder)
    -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input
  {
    Publishers.Decode(upstream: self, decoder: decoder)
  }
}
