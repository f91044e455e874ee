extension Publishers {
  /// A publisher that replaces a failed upstream with another publisher: Combine's `catch`.
  ///
  /// Until upstream fails, everything passes through; on failure, the handler's publisher is
  /// subscribed and asked for the demand downstream has left. Its subscription is "Catch".
  public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = NewPublisher.Failure

    /// The publisher that may fail.
    public let upstream: Upstream
    /// Makes the replacement publisher from upstream's error.
    public let handler: (Upstream.Failure) -> NewPublisher

    /// `upstream`, replaced by `handler`'s publisher if it fails.
    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let handler = self.handler
      let inner = CatchInner<Upstream, NewPublisher, S>(
        downstream: subscriber, name: "Catch", mapFailure: { $0 },
        handler: { (error) throws(Failure) in handler(error) })
      upstream.subscribe(CatchInner.UpstreamSide(inner: inner))
    }
  }

  /// ``Catch`` with a throwing handler: an error it throws ends the publisher with that error.
  /// Its subscription is "TryCatch".
  public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
  where Upstream.Output == NewPublisher.Output {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher that may fail.
    public let upstream: Upstream
    /// Makes the replacement publisher from upstream's error, or throws.
    public let handler: (Upstream.Failure) throws -> NewPublisher

    /// `upstream`, replaced by `handler`'s publisher if it fails.
    public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
      self.upstream = upstream
      self.handler = handler
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let handler = self.handler
      let inner = CatchInner<Upstream, NewPublisher, S>(
        downstream: subscriber, name: "TryCatch", mapFailure: { $0 },
        handler: { (error) throws(any Error) in try handler(error) })
      upstream.subscribe(CatchInner.UpstreamSide(inner: inner))
    }
  }
}

extension Publisher {
  /// Replaces this publisher, if it fails, with the publisher `handler` makes from the error.
  ///
  ///     loader.catch { _ in Just(cachedBooks) }
  public func `catch`<P: Publisher>(_ handler: @escaping (Failure) -> P)
    -> Publishers.Catch<Self, P>
  where P.Output == Output {
    Publishers.Catch(upstream: self, handler: handler)
  }

  /// ``catch(_:)`` with a throwing handler; an error it throws ends the publisher.
  public func tryCatch<P: Publisher>(_ handler: @escaping (Failure) throws -> P)
    -> Publishers.TryCatch<Self, P>
  where P.Output == Output {
    Publishers.TryCatch(upstream: self, handler: handler)
  }
}
