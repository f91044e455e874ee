extension Publishers {
  /// A publisher that cannot fail, given a failure type so that it composes with publishers
  /// that can.
  ///
  /// It adds no subscription of its own: downstream receives upstream's subscription. Its
  /// subscriber describes itself as "SetFailureType".
  public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher
  where Upstream.Failure == Never {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output

    /// The publisher that cannot fail.
    public let upstream: Upstream

    /// `upstream`, typed as failing with `Failure`.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(Inner(downstream: subscriber))
    }

    /// Fuses with the next `setFailureType`, as Combine does.
    public func setFailureType<E: Error>(to failureType: E.Type)
      -> Publishers.SetFailureType<Upstream, E>
    {
      Publishers.SetFailureType(upstream: upstream)
    }

    /// What `setFailureType` subscribes to upstream.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
      CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
      @usableFromInline let downstream: Downstream
      @usableFromInline let combineIdentifier = CombineIdentifier()

      @inlinable init(downstream: Downstream) { self.downstream = downstream }

      @inlinable func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
      }
      @inlinable func receive(_ input: Output) -> Subscribers.Demand { downstream.receive(input) }
      @inlinable func receive(completion: Subscribers.Completion<Never>) {
        downstream.receive(completion: .finished)
      }

      @usableFromInline var description: String { "SetFailureType" }
      @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
      @usableFromInline var playgroundDescription: Any { description }
    }
  }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension Publisher where Failure == Never {
  /// Gives a publisher that cannot fail a failure type, so that it composes with one that can.
  ///
  ///     Just(placeholder).setFailureType(to: URLError.self).merge(with: loader)
  public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E>
  {
    Publishers.SetFailureType(upstream: self)
  }
}
