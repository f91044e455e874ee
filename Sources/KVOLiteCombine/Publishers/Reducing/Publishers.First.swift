extension Publishers {
  /// A publisher of its upstream's first value; it then cancels upstream and finishes (or finishes
  /// with nothing if upstream finishes first). Its subscription is "First".
  public struct First<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one reduces.
    public let upstream: Upstream

    /// The first of `upstream`'s values.
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
          downstream: subscriber, name: "First", initial: nil, mapFailure: { $0 }
        ) {
          result, value in
          result = value
          return .finish
        })
    }
  }

  /// A publisher of the first value that satisfies a predicate. Its subscription describes itself
  /// as "TryFirst", as Combine's does.
  public struct FirstWhere<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// Whether a value is the one.
    public let predicate: (Upstream.Output) -> Bool

    /// The first of `upstream`'s values that satisfies `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      upstream.subscribe(
        ReducingSubscription(
          downstream: subscriber, name: "TryFirst", initial: nil, mapFailure: { $0 }
        ) {
          result, value in
          guard predicate(value) else { return .continue }
          result = value
          return .finish
        })
    }
  }

  /// ``FirstWhere`` with a throwing predicate; a thrown error ends the publisher. Its subscription
  /// is "TryFirstWhere".
  public struct TryFirstWhere<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// Whether a value is the one.
    public let predicate: (Upstream.Output) throws -> Bool

    /// The first of `upstream`'s values that satisfies `predicate`.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      upstream.subscribe(
        ReducingSubscription(
          downstream: subscriber, name: "TryFirstWhere", initial: nil, mapFailure: { $0 }
        ) {
          result, value in
          do {
            guard try predicate(value) else { return .continue }
            result = value
            return .finish
          } catch {
            return .fail(error)
          }
        })
    }
  }
}

extension Publisher {
  /// Publishes the first value, then finishes.
  public func first() -> Publishers.First<Self> {
    Publishers.First(upstream: self)
  }

  /// Publishes the first value that satisfies `predicate`, then finishes.
  public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
    Publishers.FirstWhere(upstream: self, predicate: predicate)
  }

  /// Publishes the first value that satisfies a throwing `predicate`, then finishes.
  public func tryFirst(where predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryFirstWhere<Self>
  {
    Publishers.TryFirstWhere(upstream: self, predicate: predicate)
  }
}
