extension Publishers {
  /// A publisher that republishes only the values that satisfy a predicate.
  ///
  /// Like ``Publishers/Map``, it adds no subscription of its own: downstream receives upstream's
  /// subscription. A value it drops answers upstream with a demand of one more, so downstream's
  /// demand is met exactly. Its subscriber describes itself as "Filter".
  public struct Filter<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher this one filters.
    public let upstream: Upstream
    /// Whether to republish a value.
    public let isIncluded: (Upstream.Output) -> Bool

    /// A publisher of the values of `upstream` for which `isIncluded` is true.
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(Inner(downstream: subscriber, isIncluded: isIncluded))
    }

    /// What `filter` subscribes to upstream.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
      CustomPlaygroundDisplayConvertible
    where Downstream.Input == Output, Downstream.Failure == Failure {
      @usableFromInline let downstream: Downstream
      @usableFromInline let isIncluded: (Output) -> Bool
      @usableFromInline let combineIdentifier = CombineIdentifier()

      @inlinable init(downstream: Downstream, isIncluded: @escaping (Output) -> Bool) {
        self.downstream = downstream
        self.isIncluded = isIncluded
      }

      @inlinable func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
      }
      @inlinable func receive(_ input: Output) -> Subscribers.Demand {
        isIncluded(input) ? downstream.receive(input) : .max(1)
      }
      @inlinable func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
      }

      @usableFromInline var description: String { "Filter" }
      @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
      @usableFromInline var playgroundDescription: Any { description }
    }
  }
}

extension Publishers.Filter {
  /// Fuses with the next `filter`, as Combine does: one `Filter` whose predicate runs both
  /// (the second only for values the first includes).
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
    let first = self.isIncluded
    return Publishers.Filter(upstream: upstream) { first($0) && isIncluded($0) }
  }
}

extension Publisher {
  /// Republishes only the values that satisfy `isIncluded`.
  ///
  ///     subject.filter { $0.isMultiple(of: 2) }.sink { print($0) }  // 1...4 prints "2 4"
  public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
    Publishers.Filter(upstream: self, isIncluded: isIncluded)
  }
}
