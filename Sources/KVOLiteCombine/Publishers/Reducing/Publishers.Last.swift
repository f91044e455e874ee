extension Publishers {
  /// A publisher of its upstream's last value, when it finishes. Its subscription is "Last".
  public struct Last<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one reduces.
    public let upstream: Upstream

    /// The last of `upstream`'s values.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        ReducingSubscription(downstream: subscriber, name: "Last", initial: nil, mapFailure: { $0 })
        {
          result, value in
          result = value
          return .continue
        })
    }
  }

  /// A publisher of the last value that satisfies a predicate, when its upstream finishes. Its
  /// subscription is "LastWhere".
  public struct LastWhere<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// Whether a value counts.
    public let predicate: (Upstream.Output) -> Bool

    /// The last of `upstream`'s values that satisfies `predicate`.
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
          downstream: subscriber, name: "LastWhere", initial: nil, mapFailure: { $0 }
        ) {
          result, value in
          if predicate(value) { result = value }
          return .continue
        })
    }
  }

  /// ``LastWhere`` with a throwing predicate; a thrown error ends the publisher. Its subscription
  /// is "TryLastWhere".
  public struct TryLastWhere<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// Whether a value counts.
    public let predicate: (Upstream.Output) throws -> Bool

    /// The last of `upstream`'s values that satisfies `predicate`.
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
          downstream: subscriber, name: "TryLastWhere", initial: nil, mapFailure: { $0 }
        ) {
          result, value in
          do {
            if try predicate(value) { result = value }
            return .continue
          } catch {
            return .fail(error)
          }
        })
    }
  }
}

extension Publisher {
  /// Publishes the last value when this publisher finishes.
  public func last() -> Publishers.Last<Self> {
    Publishers.Last(upstream: self)
  }

  /// Publishes the last value that satisfies `predicate` when this publisher finishes.
  public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
    Publishers.LastWhere(upstream: self, predicate: predicate)
  }

  /// Publishes the last value that satisfies a throwing `predicate` when this publisher
  /// finishes.
  public func tryLast(where predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryLastWhere<Self>
  {
    Publishers.TryLastWhere(upstream: self, predicate: predicate)
  }
}
