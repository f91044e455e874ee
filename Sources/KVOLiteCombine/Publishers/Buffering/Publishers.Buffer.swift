extension Publishers {
  /// A publisher that buffers its upstream's values until downstream asks for them.
  ///
  /// As Combine's: with ``Publishers/PrefetchStrategy/keepFull`` it asks upstream for `size`
  /// values at subscription and for one more per value it delivers; with
  /// ``Publishers/PrefetchStrategy/byRequest`` it asks for `.unlimited`. A value that finds
  /// the buffer full is handled by `whenFull`. Buffered values go out as downstream demands
  /// them; a finish goes out once the buffer is empty and downstream has demand, a failure at
  /// the first chance (buffered values are then dropped). Its subscription is "Buffer".
  public struct Buffer<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are buffered.
    public let upstream: Upstream
    /// The most values the buffer holds.
    public let size: Int
    /// When upstream is asked for values.
    public let prefetch: Publishers.PrefetchStrategy
    /// What happens to a value that finds the buffer full.
    public let whenFull: Publishers.BufferingStrategy<Upstream.Failure>

    /// A publisher that buffers up to `size` of `upstream`'s values.
    public init(
      upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
      whenFull: Publishers.BufferingStrategy<Failure>
    ) {
      self.upstream = upstream
      self.size = size
      self.prefetch = prefetch
      self.whenFull = whenFull
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        BufferInner(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
    }
  }
}

extension Publisher {
  /// Buffers up to `size` values until downstream asks for them: Combine's
  /// `buffer(size:prefetch:whenFull:)`.
  public func buffer(
    size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Failure>
  ) -> Publishers.Buffer<Self> {
    Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
  }
}
