extension Publishers {
  /// A publisher of tuples of the values of 2 publishers, one value from each, in order:
  /// the first tuple is every upstream's first value, and so on. It finishes when an upstream
  /// has finished and no more tuples are possible. Its subscription is "Zip".
  public struct Zip<A: Publisher, B: Publisher>: Publisher where B.Failure == A.Failure {
    /// The kind of values this publisher publishes.
    public typealias Output = (A.Output, B.Output)
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// Upstream 1.
    public let a: A
    /// Upstream 2.
    public let b: B

    /// The upstreams' values, zipped.
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = ZipInner(downstream: subscriber, count: 2) {
        ($0[0] as! A.Output, $0[1] as! B.Output)
      }
      a.subscribe(inner.side(0, A.Output.self))
      b.subscribe(inner.side(1, B.Output.self))
    }
  }

  /// A publisher of tuples of the values of 3 publishers, one value from each, in order:
  /// the first tuple is every upstream's first value, and so on. It finishes when an upstream
  /// has finished and no more tuples are possible. Its subscription is "Zip".
  public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where B.Failure == A.Failure, C.Failure == A.Failure {
    /// The kind of values this publisher publishes.
    public typealias Output = (A.Output, B.Output, C.Output)
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// Upstream 1.
    public let a: A
    /// Upstream 2.
    public let b: B
    /// Upstream 3.
    public let c: C

    /// The upstreams' values, zipped.
    public init(_ a: A, _ b: B, _ c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = ZipInner(downstream: subscriber, count: 3) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output)
      }
      a.subscribe(inner.side(0, A.Output.self))
      b.subscribe(inner.side(1, B.Output.self))
      c.subscribe(inner.side(2, C.Output.self))
    }
  }

  /// A publisher of tuples of the values of 4 publishers, one value from each, in order:
  /// the first tuple is every upstream's first value, and so on. It finishes when an upstream
  /// has finished and no more tuples are possible. Its subscription is "Zip".
  public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where B.Failure == A.Failure, C.Failure == A.Failure, D.Failure == A.Failure {
    /// The kind of values this publisher publishes.
    public typealias Output = (A.Output, B.Output, C.Output, D.Output)
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// Upstream 1.
    public let a: A
    /// Upstream 2.
    public let b: B
    /// Upstream 3.
    public let c: C
    /// Upstream 4.
    public let d: D

    /// The upstreams' values, zipped.
    public init(_ a: A, _ b: B, _ c: C, _ d: D) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = ZipInner(downstream: subscriber, count: 4) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output)
      }
      a.subscribe(inner.side(0, A.Output.self))
      b.subscribe(inner.side(1, B.Output.self))
      c.subscribe(inner.side(2, C.Output.self))
      d.subscribe(inner.side(3, D.Output.self))
    }
  }

}

extension Publisher {
  /// Zips this publisher with 1 other: one value from each, as a tuple.
  public func zip<B: Publisher>(_ b: B) -> Publishers.Zip<Self, B> where B.Failure == Failure {
    Publishers.Zip(self, b)
  }

  /// Zips this publisher with 1 other, and transforms each tuple.
  public func zip<B: Publisher, Result>(_ b: B, _ transform: @escaping (Output, B.Output) -> Result)
    -> Publishers.Map<Publishers.Zip<Self, B>, Result> where B.Failure == Failure
  {
    Publishers.Zip(self, b).map(transform)
  }

  /// Zips this publisher with 2 others: one value from each, as a tuple.
  public func zip<B: Publisher, C: Publisher>(_ b: B, _ c: C) -> Publishers.Zip3<Self, B, C>
  where B.Failure == Failure, C.Failure == Failure {
    Publishers.Zip3(self, b, c)
  }

  /// Zips this publisher with 2 others, and transforms each tuple.
  public func zip<B: Publisher, C: Publisher, Result>(
    _ b: B, _ c: C, _ transform: @escaping (Output, B.Output, C.Output) -> Result
  )
    -> Publishers.Map<Publishers.Zip3<Self, B, C>, Result>
  where B.Failure == Failure, C.Failure == Failure {
    Publishers.Zip3(self, b, c).map(transform)
  }

  /// Zips this publisher with 3 others: one value from each, as a tuple.
  public func zip<B: Publisher, C: Publisher, D: Publisher>(_ b: B, _ c: C, _ d: D)
    -> Publishers.Zip4<Self, B, C, D>
  where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
    Publishers.Zip4(self, b, c, d)
  }

  /// Zips this publisher with 3 others, and transforms each tuple.
  public func zip<B: Publisher, C: Publisher, D: Publisher, Result>(
    _ b: B, _ c: C, _ d: D, _ transform: @escaping (Output, B.Output, C.Output, D.Output) -> Result
  )
    -> Publishers.Map<Publishers.Zip4<Self, B, C, D>, Result>
  where B.Failure == Failure, C.Failure == Failure, D.Failure == Failure {
    Publishers.Zip4(self, b, c, d).map(transform)
  }

}
