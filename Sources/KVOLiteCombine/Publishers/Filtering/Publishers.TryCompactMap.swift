extension Publishers {
  /// A publisher that republishes the non-`nil` results of a throwing transformation; a thrown
  /// error cancels upstream and ends the publisher with that error. Its subscription is
  /// "TryCompactMap".
  public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher this one transforms.
    public let upstream: Upstream
    /// The transformation; `nil` results are dropped.
    public let transform: (Upstream.Output) throws -> Output?

    /// A publisher of the non-`nil` results of `transform` on `upstream`'s values.
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let transform = self.transform
      upstream.subscribe(
        StepSubscription(downstream: subscriber, name: "TryCompactMap", mapFailure: { $0 }) {
          input in
          do { return try transform(input).map { .send($0) } ?? .skip } catch {
            return .fail(error)
          }
        })
    }
  }
}

extension Publishers.TryCompactMap {
  /// Fuses with the next `compactMap`, as Combine does: one `TryCompactMap`.
  public func compactMap<T>(_ transform: @escaping (Output) throws -> T?)
    -> Publishers.TryCompactMap<Upstream, T>
  {
    let first = self.transform
    return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(transform) }
  }
}

extension Publisher {
  /// Republishes the non-`nil` results of a throwing `transform`; a thrown error ends the
  /// publisher.
  public func tryCompactMap<T>(_ transform: @escaping (Output) throws -> T?)
    -> Publishers.TryCompactMap<Self, T>
  {
    Publishers.TryCompactMap(upstream: self, transform: transform)
  }
}
