extension Publishers {
  /// A publisher that publishes only values that differ from the previous one.
  public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher this one filters.
    public let upstream: Upstream
    /// Whether the second value is a duplicate of the first (the previous one).
    public let predicate: (Output, Output) -> Bool

    public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      // Values arrive one at a time (the Publisher contract), so the memory of the previous one
      // needs no lock of its own.
      let previous = Previous<Output>()
      let predicate = self.predicate
      upstream.subscribe(
        TransformingInner<S, Output>(downstream: subscriber) { value in
          if let last = previous.value, predicate(last, value) { return nil }
          previous.value = value
          return value
        })
    }
  }
}

/// The last value a `removeDuplicates` subscription let through.
@usableFromInline
final class Previous<Value>: @unchecked Sendable {
  @usableFromInline var value: Value?
  @usableFromInline init() {}
}

extension Publisher where Output: Equatable {
  /// Publishes only values that differ from the previous one.
  ///
  ///     subject.removeDuplicates().sink { print($0) }  // 1, 1, 2, 2, 1 prints "1 2 1"
  public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
    Publishers.RemoveDuplicates(upstream: self, predicate: ==)
  }
}

extension Publisher {
  /// Publishes only values that `predicate` does not call duplicates of the previous one.
  public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool)
    -> Publishers.RemoveDuplicates<Self>
  {
    Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
  }
}
