extension Publishers {
  /// A publisher of the greatest value by an ordering (the smallest, for `min`), when its upstream
  /// finishes: a value replaces the result when `areInIncreasingOrder(result, value)`. Its
  /// subscription is "Comparison".
  public struct Comparison<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// Whether the first value orders before the second.
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) -> Bool

    /// The greatest of `upstream`'s values by `areInIncreasingOrder`.
    public init(
      upstream: Upstream, areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) -> Bool
    ) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let areInIncreasingOrder = self.areInIncreasingOrder
      upstream.subscribe(
        ReducingSubscription(
          downstream: subscriber, name: "Comparison", initial: nil, mapFailure: { $0 }
        ) {
          result, value in
          if let current = result, !areInIncreasingOrder(current, value) { return .continue }
          result = value
          return .continue
        })
    }
  }

  /// ``Comparison`` with a throwing ordering; a thrown error ends the publisher. Its subscription
  /// is "TryComparison".
  public struct TryComparison<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher this one reduces.
    public let upstream: Upstream
    /// Whether the first value orders before the second.
    public let areInIncreasingOrder: (Upstream.Output, Upstream.Output) throws -> Bool

    /// The greatest of `upstream`'s values by `areInIncreasingOrder`.
    public init(
      upstream: Upstream,
      areInIncreasingOrder: @escaping (Upstream.Output, Upstream.Output) throws -> Bool
    ) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let areInIncreasingOrder = self.areInIncreasingOrder
      upstream.subscribe(
        ReducingSubscription(
          downstream: subscriber, name: "TryComparison", initial: nil, mapFailure: { $0 }
        ) {
          result, value in
          do {
            if let current = result, try !areInIncreasingOrder(current, value) { return .continue }
            result = value
            return .continue
          } catch {
            return .fail(error)
          }
        })
    }
  }
}

extension Publisher where Output: Comparable {
  /// Publishes the smallest value when this publisher finishes.
  public func min() -> Publishers.Comparison<Self> { max(by: >) }

  /// Publishes the greatest value when this publisher finishes.
  public func max() -> Publishers.Comparison<Self> { max(by: <) }
}

extension Publisher {
  /// Publishes the smallest value by `areInIncreasingOrder` when this publisher finishes.
  public func min(by areInIncreasingOrder: @escaping (Output, Output) -> Bool)
    -> Publishers.Comparison<Self>
  {
    max { areInIncreasingOrder($1, $0) }
  }

  /// Publishes the greatest value by `areInIncreasingOrder` when this publisher finishes.
  public func max(by areInIncreasingOrder: @escaping (Output, Output) -> Bool)
    -> Publishers.Comparison<Self>
  {
    Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }

  /// ``min(by:)`` with a throwing ordering; a thrown error ends the publisher.
  public func tryMin(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
    -> Publishers.TryComparison<Self>
  {
    tryMax { try areInIncreasingOrder($1, $0) }
  }

  /// ``max(by:)`` with a throwing ordering; a thrown error ends the publisher.
  public func tryMax(by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool)
    -> Publishers.TryComparison<Self>
  {
    Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }
}
