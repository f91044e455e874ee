extension Publishers {
  /// A publisher of whether its upstream published a value: `true` as soon as it does (cancelling
  /// upstream), `false` when upstream finishes without it. Its subscription is "Contains".
  public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
    /// The kind of values this publisher publishes.
    public typealias Output = Bool
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// The value looked for.
    public let output: Upstream.Output

    /// Whether `upstream` publishes `output`.
    public init(upstream: Upstream, output: Upstream.Output) {
      self.upstream = upstream
      self.output = output
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let output = self.output
      upstream.subscribe(
        ReducingSubscription(
          downstream: subscriber, name: "Contains", initial: false, mapFailure: { $0 }
        ) {
          result, value in
          guard value == output else { return .continue }
          result = true
          return .finish
        })
    }
  }

  /// A publisher of whether its upstream published a value that satisfies a predicate. Its
  /// subscription is "ContainsWhere".
  public struct ContainsWhere<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Bool
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// Whether a value is one looked for.
    public let predicate: (Upstream.Output) -> Bool

    /// Whether `upstream` publishes a value that satisfies `predicate`.
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
          downstream: subscriber, name: "ContainsWhere", initial: false, mapFailure: { $0 }
        ) {
          result, value in
          guard predicate(value) else { return .continue }
          result = true
          return .finish
        })
    }
  }

  /// ``ContainsWhere`` with a throwing predicate; a thrown error ends the publisher. Its
  /// subscription is "TryContainsWhere".
  public struct TryContainsWhere<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Bool
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// Whether a value is one looked for.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Whether `upstream` publishes a value that satisfies `predicate`.
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
          downstream: subscriber, name: "TryContainsWhere", initial: false, mapFailure: { $0 }
        ) {
          result, value in
          do {
            guard try predicate(value) else { return .continue }
            result = true
            return .finish
          } catch {
            return .fail(error)
          }
        })
    }
  }
}

extension Publisher where Output: Equatable {
  /// Publishes `true` as soon as this publisher publishes `output`, or `false` when it finishes.
  public func contains(_ output: Output) -> Publishers.Contains<Self> {
    Publishers.Contains(upstream: self, output: output)
  }
}

extension Publisher {
  /// Publishes `true` as soon as a value satisfies `predicate`, or `false` when this publisher
  /// finishes.
  public func contains(where predicate: @escaping (Output) -> Bool)
    -> Publishers.ContainsWhere<Self>
  {
    Publishers.ContainsWhere(upstream: self, predicate: predicate)
  }

  /// ``contains(where:)`` with a throwing predicate; a thrown error ends the publisher.
  public func tryContains(where predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryContainsWhere<Self>
  {
    Publishers.TryContainsWhere(upstream: self, predicate: predicate)
  }
}
