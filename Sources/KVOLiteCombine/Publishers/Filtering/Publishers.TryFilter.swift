extension Publishers {
  /// A publisher that republishes the values a throwing predicate includes; a thrown error
  /// cancels upstream and ends the publisher with that error. Its subscription is "TryFilter".
  public struct TryFilter<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher this one filters.
    public let upstream: Upstream
    /// Whether to republish a value.
    public let isIncluded: (Upstream.Output) throws -> Bool

    /// A publisher of the values of `upstream` that `isIncluded` includes.
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let isIncluded = self.isIncluded
      upstream.subscribe(
        StepSubscription(downstream: subscriber, name: "TryFilter", mapFailure: { $0 }) { input in
          do { return try isIncluded(input) ? .send(input) : .skip } catch { return .fail(error) }
        })
    }
  }
}

extension Publishers.TryFilter {
  /// Fuses with the next `filter`, as Combine does: one `TryFilter`.
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream> {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }

  /// Fuses with the next `tryFilter`, as Combine does.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool)
    -> Publishers.TryFilter<Upstream>
  {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }
}

extension Publishers.Filter {
  /// Fuses with the next `tryFilter`, as Combine does: one `TryFilter`.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool)
    -> Publishers.TryFilter<Upstream>
  {
    let first = self.isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && isIncluded($0) }
  }
}

extension Publisher {
  /// Republishes the values a throwing predicate includes; a thrown error ends the publisher.
  public func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool)
    -> Publishers.TryFilter<Self>
  {
    Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
  }
}
