extension Publishers {
  /// A publisher that transforms every value from its upstream.
  ///
  /// It adds no subscription of its own: downstream receives upstream's subscription, so its
  /// requests, cancellation and the demand it returns reach upstream unchanged, and events that
  /// upstream sends before subscription or after cancellation pass through too (as in Combine).
  /// Its subscriber describes itself as "Map".
  public struct Map<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one transforms.
    public let upstream: Upstream
    /// The transformation.
    public let transform: (Upstream.Output) -> Output

    /// A publisher that transforms `upstream`'s values with `transform`.
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
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

    /// What `map` subscribes to upstream: hands everything straight on, values transformed.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
      CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Upstream.Failure {
      @usableFromInline let downstream: Downstream
      @usableFromInline let transform: (Upstream.Output) -> Output
      @usableFromInline let combineIdentifier = CombineIdentifier()

      @inlinable init(downstream: Downstream, transform: @escaping (Upstream.Output) -> Output) {
        self.downstream = downstream
        self.transform = transform
      }

      @inlinable func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
      }
      @inlinable func receive(_ input: Upstream.Output) -> Subscribers.Demand {
        downstream.receive(transform(input))
      }
      @inlinable func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        downstream.receive(completion: completion)
      }

      @usableFromInline var description: String { "Map" }
      @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
      @usableFromInline var playgroundDescription: Any { description }
    }
  }
}

extension Publishers.Map {
  /// Fuses with the next `map`, as Combine does: one `Map` whose transform runs both.
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
    let first = self.transform
    return Publishers.Map(upstream: upstream) { transform(first($0)) }
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
