extension Publishers {
  /// A publisher that ignores every value of its upstream and passes on only its completion.
  ///
  /// It adds no subscription of its own: downstream receives upstream's subscription, and
  /// upstream is asked for `.unlimited` as soon as downstream has it. Its subscriber describes
  /// itself as "IgnoreOutput".
  public struct IgnoreOutput<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Never
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are ignored.
    public let upstream: Upstream

    /// `upstream`'s completion, without its values.
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Never, S.Failure == Failure {
      upstream.subscribe(Inner(downstream: subscriber))
    }

    /// What `ignoreOutput` subscribes to upstream.
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
      CustomPlaygroundDisplayConvertible
    where Downstream.Input == Never, Downstream.Failure == Failure {
      let downstream: Downstream
      let combineIdentifier = CombineIdentifier()

      func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
        subscription.request(.unlimited)
      }

      func receive(_ input: Upstream.Output) -> Subscribers.Demand { .none }
      func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
      }

      var description: String { "IgnoreOutput" }
      var customMirror: Mirror { Mirror(self, children: [:]) }
      var playgroundDescription: Any { description }
    }
  }
}

extension Publishers.IgnoreOutput: Equatable where Upstream: Equatable {}

extension Publisher {
  /// Ignores every value and passes on only the completion.
  public func ignoreOutput() -> Publishers.IgnoreOutput<Self> {
    Publishers.IgnoreOutput(upstream: self)
  }
}
