extension Publishers {
  /// A publisher of whether every value of its upstream satisfies a predicate: `false` as soon as
  /// one does not (cancelling upstream), `true` when upstream finishes. Its subscription is
  /// "AllSatisfy".
  public struct AllSatisfy<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Bool
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// The test every value must pass.
    public let predicate: (Upstream.Output) -> Bool

    /// Whether every value of `upstream` satisfies `predicate`.
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
          downstream: subscriber, name: "AllSatisfy", initial: true, mapFailure: { $0 }
        ) {
          result, value in
          guard !predicate(value) else { return .continue }
          result = false
          return .finish
        })
    }
  }

  /// ``AllSatisfy`` with a throwing predicate; a thrown error ends the publisher. Its subscription
  /// is "TryAllSatisfy".
  public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Bool
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// The test every value must pass.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Whether every value of `upstream` satisfies `predicate`.
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
          downstream: subscriber, name: "TryAllSatisfy", initial: true, mapFailure: { $0 }
        ) {
          result, value in
          do {
            guard try !predicate(value) else { return .continue }
            result = false
            return .finish
          } catch {
            return .fail(error)
          }
        })
    }
  }
}

extension Publisher {
  /// Publishes `false` as soon as a value fails `predicate`, or `true` when this publisher
  /// finishes.
  public func allSatisfy(_ predicate: @escaping (Output) -> Bool) -> Publishers.AllSatisfy<Self> {
    Publishers.AllSatisfy(upstream: self, predicate: predicate)
  }

  /// ``allSatisfy(_:)`` with a throwing predicate; a thrown error ends the publisher.
  public func tryAllSatisfy(_ predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryAllSatisfy<Self>
  {
    Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
  }
}
