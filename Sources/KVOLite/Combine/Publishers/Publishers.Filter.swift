extension Publishers {
  /// A publisher that republishes only the values that satisfy a predicate.
  public struct Filter<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher this one filters.
    public let upstream: Upstream
    /// Whether to republish a value.
    public let isIncluded: (Upstream.Output) -> Bool

    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let isIncluded = self.isIncluded
      upstream.subscribe(
        TransformingInner<S, Output>(downstream: subscriber, transform: { isIncluded($0) ? $0 : nil }))
    }
  }

  /// A publisher that republishes the non-`nil` results of a transformation.
  public struct CompactMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher this one transforms.
    public let upstream: Upstream
    /// The transformation; `nil` results are dropped.
    public let transform: (Upstream.Output) -> Output?

    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(TransformingInner<S, Upstream.Output>(downstream: subscriber, transform: transform))
    }
  }
}

extension Publisher {
  /// Republishes only the values that satisfy `isIncluded`. A dropped value is replaced by a
  /// request for one more, so downstream's demand is met exactly.
  ///
  ///     subject.filter { $0.isMultiple(of: 2) }.sink { print($0) }  // 1...4 prints "2 4"
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
    Publishers.Filter(upstream: self, isIncluded: isIncluded)
  }

  /// Republishes the non-`nil` results of `transform`.
  ///
  ///     subject.compactMap { Int($0) }.sink { print($0) }  // "1", "x", "3" prints "1 3"
  public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
    Publishers.CompactMap(upstream: self, transform: transform)
  }
}
