// Merge of three to eight publishers: Combine's `Merge3` … `Merge8`, on the subscription of
// ``Publishers/MergeMany``.

extension Publishers {
  /// A publisher that interleaves the values of 3 publishers; see ``MergeMany``.
  public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure {
    /// The kind of values this publisher publishes.
    public typealias Output = A.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// Upstream 1.
    public let a: A
    /// Upstream 2.
    public let b: B
    /// Upstream 3.
    public let c: C

    /// The interleaving of the upstreams' values.
    public init(_ a: A, _ b: B, _ c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = MergeInner(downstream: subscriber, count: 3)
      subscriber.receive(subscription: inner)
      a.subscribe(inner.side(0))
      b.subscribe(inner.side(1))
      c.subscribe(inner.side(2))
    }
  }

  /// A publisher that interleaves the values of 4 publishers; see ``MergeMany``.
  public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where
    B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure,
    D.Output == A.Output, D.Failure == A.Failure
  {
    /// The kind of values this publisher publishes.
    public typealias Output = A.Output
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

    /// The interleaving of the upstreams' values.
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
      let inner = MergeInner(downstream: subscriber, count: 4)
      subscriber.receive(subscription: inner)
      a.subscribe(inner.side(0))
      b.subscribe(inner.side(1))
      c.subscribe(inner.side(2))
      d.subscribe(inner.side(3))
    }
  }

  /// A publisher that interleaves the values of 5 publishers; see ``MergeMany``.
  public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>:
    Publisher
  where
    B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure,
    D.Output == A.Output, D.Failure == A.Failure, E.Output == A.Output, E.Failure == A.Failure
  {
    /// The kind of values this publisher publishes.
    public typealias Output = A.Output
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
    /// Upstream 5.
    public let e: E

    /// The interleaving of the upstreams' values.
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = MergeInner(downstream: subscriber, count: 5)
      subscriber.receive(subscription: inner)
      a.subscribe(inner.side(0))
      b.subscribe(inner.side(1))
      c.subscribe(inner.side(2))
      d.subscribe(inner.side(3))
      e.subscribe(inner.side(4))
    }
  }

  /// A publisher that interleaves the values of 6 publishers; see ``MergeMany``.
  public struct Merge6<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher
  >: Publisher
  where
    B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure,
    D.Output == A.Output, D.Failure == A.Failure, E.Output == A.Output, E.Failure == A.Failure,
    F.Output == A.Output, F.Failure == A.Failure
  {
    /// The kind of values this publisher publishes.
    public typealias Output = A.Output
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
    /// Upstream 5.
    public let e: E
    /// Upstream 6.
    public let f: F

    /// The interleaving of the upstreams' values.
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = MergeInner(downstream: subscriber, count: 6)
      subscriber.receive(subscription: inner)
      a.subscribe(inner.side(0))
      b.subscribe(inner.side(1))
      c.subscribe(inner.side(2))
      d.subscribe(inner.side(3))
      e.subscribe(inner.side(4))
      f.subscribe(inner.side(5))
    }
  }

  /// A publisher that interleaves the values of 7 publishers; see ``MergeMany``.
  public struct Merge7<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
  >: Publisher
  where
    B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure,
    D.Output == A.Output, D.Failure == A.Failure, E.Output == A.Output, E.Failure == A.Failure,
    F.Output == A.Output, F.Failure == A.Failure, G.Output == A.Output, G.Failure == A.Failure
  {
    /// The kind of values this publisher publishes.
    public typealias Output = A.Output
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
    /// Upstream 5.
    public let e: E
    /// Upstream 6.
    public let f: F
    /// Upstream 7.
    public let g: G

    /// The interleaving of the upstreams' values.
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
      self.g = g
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = MergeInner(downstream: subscriber, count: 7)
      subscriber.receive(subscription: inner)
      a.subscribe(inner.side(0))
      b.subscribe(inner.side(1))
      c.subscribe(inner.side(2))
      d.subscribe(inner.side(3))
      e.subscribe(inner.side(4))
      f.subscribe(inner.side(5))
      g.subscribe(inner.side(6))
    }
  }

  /// A publisher that interleaves the values of 8 publishers; see ``MergeMany``.
  public struct Merge8<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
    G: Publisher, H: Publisher
  >: Publisher
  where
    B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure,
    D.Output == A.Output, D.Failure == A.Failure, E.Output == A.Output, E.Failure == A.Failure,
    F.Output == A.Output, F.Failure == A.Failure, G.Output == A.Output, G.Failure == A.Failure,
    H.Output == A.Output, H.Failure == A.Failure
  {
    /// The kind of values this publisher publishes.
    public typealias Output = A.Output
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
    /// Upstream 5.
    public let e: E
    /// Upstream 6.
    public let f: F
    /// Upstream 7.
    public let g: G
    /// Upstream 8.
    public let h: H

    /// The interleaving of the upstreams' values.
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
      self.g = g
      self.h = h
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = MergeInner(downstream: subscriber, count: 8)
      subscriber.receive(subscription: inner)
      a.subscribe(inner.side(0))
      b.subscribe(inner.side(1))
      c.subscribe(inner.side(2))
      d.subscribe(inner.side(3))
      e.subscribe(inner.side(4))
      f.subscribe(inner.side(5))
      g.subscribe(inner.side(6))
      h.subscribe(inner.side(7))
    }
  }

}

extension Publisher {
  /// Interleaves the values of this publisher and 2 others.
  public func merge<B: Publisher, C: Publisher>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
  where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
    Publishers.Merge3(self, b, c)
  }

  /// Interleaves the values of this publisher and 3 others.
  public func merge<B: Publisher, C: Publisher, D: Publisher>(with b: B, _ c: C, _ d: D)
    -> Publishers.Merge4<Self, B, C, D>
  where
    B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
    D.Output == Output, D.Failure == Failure
  {
    Publishers.Merge4(self, b, c, d)
  }

  /// Interleaves the values of this publisher and 4 others.
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
    with b: B, _ c: C, _ d: D, _ e: E
  ) -> Publishers.Merge5<Self, B, C, D, E>
  where
    B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
    D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure
  {
    Publishers.Merge5(self, b, c, d, e)
  }

  /// Interleaves the values of this publisher and 5 others.
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F
  ) -> Publishers.Merge6<Self, B, C, D, E, F>
  where
    B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
    D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
    F.Output == Output, F.Failure == Failure
  {
    Publishers.Merge6(self, b, c, d, e, f)
  }

  /// Interleaves the values of this publisher and 6 others.
  public func merge<
    B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
  >(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) -> Publishers.Merge7<Self, B, C, D, E, F, G>
  where
    B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
    D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
    F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure
  {
    Publishers.Merge7(self, b, c, d, e, f, g)
  }

  /// Interleaves the values of this publisher and 7 others.
  public func merge<
    B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher
  >(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H)
    -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
  where
    B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
    D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
    F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure,
    H.Output == Output, H.Failure == Failure
  {
    Publishers.Merge8(self, b, c, d, e, f, g, h)
  }

}
