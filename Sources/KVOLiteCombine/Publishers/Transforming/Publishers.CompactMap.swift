extension Publishers {
  /// A publisher that republishes the non-`nil` results of a transformation.
  ///
  /// Like ``Publishers/Map``, it adds no subscription of its own. A `nil` result answers
  /// upstream with a demand of one more. Its subscriber describes itself as "CompactMap".
  public struct CompactMap<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one transforms.
    public let upstream: Upstream
    /// The transformation; `nil` results are dropped.
    public let transform: (Upstream.Output) -> Output?

    /// A publisher of the non-`nil` results of `transform` on `upstream`'s values.
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(Inner(downstream: subscriber, transform: transform))
    }

    /// What `compactMap` subscribes to upstream.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
      CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
      @usableFromInline let downstream: Downstream
      @usableFromInline let transform: (Upstream.Output) -> Output?
      @usableFromInline let combineIdentifier = CombineIdentifier()

      @inlinable init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output?) {
        self.downstream = downstream
        self.transform = transform
      }

      @inlinable func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
      }
      @inlinable func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        guard let output = transform(input) else { return .max(1) }
        return downstream.receive(output)
      }
      @inlinable func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
      }

      @usableFromInline var description: String { "CompactMap" }
      @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
      @usableFromInline var playgroundDescription: Any { description }
    }
  }
}

extension Publishers.CompactMap {
  /// Fuses with the next `compactMap`, as Combine does.
  public func compactMap<T>(_ transform: @escaping (Output) -> T?)
    -> Publishers.CompactMap<Upstream, T>
  {
    let first = self.transform
    return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(transform) }
  }

  /// Fuses with the next `map`, as Combine does: still one `CompactMap`.
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.CompactMap<Upstream, T> {
    let first = self.transform
    return Publishers.CompactMap(upstream: upstream) { first($0).map(transform) }
  }
}

extension Publisher {
  /// Republishes the non-`nil` results of `transform`.
  ///
  ///     subject.compactMap { Int($0) }.sink { print($0) }  // "1", "x", "3" prints "1 3"
  public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T>
  {
    Publishers.CompactMap(upstream: self, transform: transform)
  }
}
