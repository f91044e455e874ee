extension Subscribers {
  /// A subscriber that requests an unlimited number of values and hands them to closures.
  ///
  /// It holds its upstream subscription and its closures until it completes or is cancelled,
  /// and releases them then (outside its lock). Thread-safe.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    // @unchecked: the mutable state is behind `lock`.
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked) @usableFromInline var status = SubscriptionStatus.awaitingSubscription
    @usableFromInline var receiveValue: ((Input) -> Void)?
    @usableFromInline var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?

    /// Creates a sink with a closure for values and one for the completion.
    @inlinable public init(
      receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
      receiveValue: @escaping (Input) -> Void
    ) {
      self.receiveCompletion = receiveCompletion
      self.receiveValue = receiveValue
    }

    @inlinable public func receive(subscription: any Subscription) {
      guard lock.withLock({ status.accept(subscription) }) else { return subscription.cancel() }
      subscription.request(.unlimited)
    }

    @inlinable public func receive(_ input: Input) -> Subscribers.Demand {
      let action = lock.withLock { !status.isSubscribed ? nil : receiveValue }
      action?(input)
      return .none
    }

    @inlinable public func receive(completion: Subscribers.Completion<Failure>) {
      let (wasSubscribed, closures) = lock.withLock { (status.isSubscribed, end()) }
      if wasSubscribed { closures.completion?(completion) }
    }

    @inlinable public func cancel() {
      let (subscription, closures) = lock.withLock { (status.subscription, end()) }
      subscription?.cancel()
      _ = closures
    }

    /// Ends the sink, with the lock held. The closures are handed to the caller, so that they are
    /// released after the lock is: what they capture may run code in its `deinit`.
    @inlinable func end() -> (value: ((Input) -> Void)?, completion: ((Subscribers.Completion<Failure>) -> Void)?) {
      defer {
        status = .terminal
        receiveValue = nil
        receiveCompletion = nil
      }
      return (receiveValue, receiveCompletion)
    }
  }
}

extension Publisher {
  /// Attaches a subscriber with closure-based behavior.
  ///
  ///     let cancellable = [1, 2, 3].publisher.sink(
  ///       receiveCompletion: { print($0) }, receiveValue: { print($0) })
  ///
  /// - Returns: A cancellable that ends the subscription when cancelled or released.
  @inlinable
  public func sink(
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
    receiveValue: @escaping (Output) -> Void
  ) -> AnyCancellable {
    let sink = Subscribers.Sink<Output, Failure>(
      receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    subscribe(sink)
    return AnyCancellable(sink)
  }
}

extension Publisher where Failure == Never {
  /// Attaches a subscriber with a closure for values, for publishers that cannot fail.
  @inlinable
  public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
    sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
  }
}
