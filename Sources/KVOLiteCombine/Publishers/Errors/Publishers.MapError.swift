extension Publishers {
  /// A publisher that turns its upstream's failure into another error.
  ///
  /// Like ``Map``, it adds no subscription of its own: downstream receives upstream's
  /// subscription. Its subscriber describes itself as "MapError".
  public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output

    /// The publisher whose failure is transformed.
    public let upstream: Upstream
    /// The transformation of the failure.
    public let transform: (Upstream.Failure) -> Failure

    /// A publisher like `upstream`, failing with `transform` of its error.
    public init(upstream: Upstream, _ transform: @escaping (Upstream.Failure) -> Failure) {
      self.upstream = upstream
      self.transform = transform
    }

    /// A publisher like `upstream`, failing with `transform` of its error.
    public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
      self.init(upstream: upstream, transform)
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(Inner(downstream: subscriber, transform: transform))
    }

    /// What `mapError` subscribes to upstream.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
      CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
      @usableFromInline let downstream: Downstream
      @usableFromInline let transform: (Upstream.Failure) -> Failure
      @usableFromInline let combineIdentifier = CombineIdentifier()

      @inlinable init(downstream: Downstream, transform: @escaping (Upstream.Failure) -> Failure) {
        self.downstream = downstream
        self.transform = transform
      }

      @inlinable func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
      }
      @inlinable func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }
      @inlinable func receive(completion: Subscribers.Completion<Upstream.Failure>) {
        switch completion {
        case .finished: downstream.receive(completion: .finished)
        case .failure(let error): downstream.receive(completion: .failure(transform(error)))
        }
      }

      @usableFromInline var description: String { "MapError" }
      @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
      @usableFromInline var playgroundDescription: Any { description }
    }
  }
}

extension Publisher {
  /// Turns a failure into another error.
  ///
  ///     loader.mapError { LoadError.network($0) }
  public func mapError<E: Error>(_ transform: @escaping (Failure) -> E)
    -> Publishers.MapError<Self, E>
  {
    Publishers.MapError(upstream: self, transform)
  }
}
