extension Publishers {
  /// A publisher that transforms every value from its upstream.
  public struct Map<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher this one transforms.
    public let upstream: Upstream
    /// The transformation.
    public let transform: (Upstream.Output) -> Output

    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      let transform = self.transform
      upstream.subscribe(
        TransformingInner<S, Upstream.Output>(downstream: subscriber, transform: { transform($0) }))
    }
  }
}

extension Publisher {
  /// Transforms every value with a closure.
  ///
  ///     let subject = PassthroughSubject<Int, Never>()
  ///     let cancellable = subject.map { $0 * 10 }.sink { print($0) }
  ///     subject.send(1)
  ///     subject.send(2)
  ///     // Prints: "10 20"
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
    Publishers.Map(upstream: self, transform: transform)
  }
}
