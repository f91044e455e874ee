extension Publishers {
  /// A publisher that publishes only values that differ from the previous one.
  ///
  /// Its subscription ("RemoveDuplicates") follows Combine's state machine: a value, completion
  /// or request before upstream's subscription is a programming error and traps; events after
  /// completion or cancellation are ignored; a duplicate answers upstream with a demand of one
  /// more. It keeps its downstream for its whole life, as Combine's does.
  public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher this one filters.
    public let upstream: Upstream
    /// Whether the second value is a duplicate of the first (the previous one).
    public let predicate: (Output, Output) -> Bool

    /// A publisher of `upstream`'s values that `predicate` does not call duplicates of the
    /// value before them.
    public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(RemoveDuplicatesInner(downstream: subscriber, predicate: predicate))
    }
  }
}

/// The subscription of `removeDuplicates`.
@usableFromInline
final class RemoveDuplicatesInner<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  @usableFromInline typealias Input = Downstream.Input
  @usableFromInline typealias Failure = Downstream.Failure

  @usableFromInline let downstream: Downstream
  @usableFromInline let predicate: (Input, Input) -> Bool
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var status = SubscriptionStatus.awaitingSubscription
  /// The previous value, duplicate or not.
  @exclusivity(unchecked) @usableFromInline var last: Input?

  @inlinable init(downstream: Downstream, predicate: @escaping (Input, Input) -> Bool) {
    self.downstream = downstream
    self.predicate = predicate
  }

  @inlinable func receive(subscription: any Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else { return subscription.cancel() }
    downstream.receive(subscription: self)
  }

  @inlinable func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    switch status {
    case .awaitingSubscription:
      lock.unlock()
      preconditionFailure("removeDuplicates received a value before receiving a subscription")
    case .terminal:
      lock.unlock()
      return .none
    case .subscribed:
      let previous = last
      last = input
      lock.unlock()
      if let previous, predicate(previous, input) { return .max(1) }
      return downstream.receive(input)
    }
  }

  @inlinable func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    switch status {
    case .awaitingSubscription:
      lock.unlock()
      preconditionFailure("removeDuplicates received a completion before receiving a subscription")
    case .terminal:
      lock.unlock()
    case .subscribed:
      status = .terminal
      lock.unlock()
      downstream.receive(completion: completion)
    }
  }

  @inlinable func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.lock()
    switch status {
    case .awaitingSubscription:
      lock.unlock()
      preconditionFailure("removeDuplicates received a request before sending its subscription")
    case .terminal:
      lock.unlock()
    case .subscribed(let subscription):
      lock.unlock()
      subscription.request(demand)
    }
  }

  @inlinable func cancel() {
    let subscription = lock.withLock {
      defer { status = .terminal }
      return status.subscription
    }
    subscription?.cancel()
  }

  @usableFromInline var description: String { "RemoveDuplicates" }
  @usableFromInline var customMirror: Mirror {
    Mirror(self, children: [("downstream", downstream), ("last", lock.withLock { last } as Any)])
  }
  @usableFromInline var playgroundDescription: Any { description }
}

extension Publisher where Output: Equatable {
  /// Publishes only values that differ from the previous one.
  ///
  ///     subject.removeDuplicates().sink { print($0) }  // 1, 1, 2, 2, 1 prints "1 2 1"
  public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
    Publishers.RemoveDuplicates(upstream: self, predicate: ==)
  }
}

extension Publisher {
  /// Publishes only values that `predicate` does not call duplicates of the previous one.
  public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool)
    -> Publishers.RemoveDuplicates<Self>
  {
    Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
  }
}
