extension Publishers {
  /// A publisher that publishes a tuple of the latest values of two publishers whenever either
  /// publishes, once both have.
  ///
  /// Requests from downstream go to both upstreams. With limited demand, values arriving without
  /// demand only update the latest values (a buffer of one per upstream); the combination is
  /// sent when demand next arrives. It finishes when both upstreams have finished, and fails
  /// (cancelling the other) when either fails.
  public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
    /// The kind of values this publisher publishes.
    public typealias Output = (A.Output, B.Output)
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// The first publisher combined.
    public let a: A
    /// The second publisher combined.
    public let b: B

    /// A publisher that combines the latest values of `a` and `b`.
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = CombineLatestInner(downstream: subscriber, count: 2) {
        ($0[0] as! A.Output, $0[1] as! B.Output)
      }
      a.subscribe(inner.side(0, A.Output.self))
      b.subscribe(inner.side(1, B.Output.self))
      subscriber.receive(subscription: inner)
    }
  }
}

extension Publisher {
  /// Publishes a tuple of the latest values of this publisher and `other` whenever either
  /// publishes, once both have.
  ///
  ///     first.combineLatest(second).sink { print($0) }
  ///     first.send(1); second.send(2); first.send(3)
  ///     // Prints: "(1, 2) (3, 2)"
  public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
  where P.Failure == Failure {
    Publishers.CombineLatest(self, other)
  }

  /// Combines the latest values of this publisher and `other` with `transform`.
  public func combineLatest<P: Publisher, T>(
    _ other: P, _ transform: @escaping (Output, P.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P.Failure == Failure {
    Publishers.CombineLatest(self, other).map(transform)
  }
}
