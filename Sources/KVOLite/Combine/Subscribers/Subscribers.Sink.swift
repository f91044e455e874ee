extension Subscribers {
  /// A subscriber that requests an unlimited number of values and hands them to closures.
  ///
  /// It holds its upstream subscription and its closures until it completes or is cancelled,
  /// and releases them then (outside its lock). Thread-safe.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    // @unchecked: the mutable state is behind `lock`.
    private let lock = Lock()
    private var status = SubscriptionStatus.awaitingSubscription
    private var receiveValue: ((Input) -> Void)?
    private var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?

    /// Creates a sink with a closure for values and one for the completion.
    public init(
      receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
      receiveValue: @escaping (Input) -> Void
    ) {
      self.receiveCompletion = receiveCompletion
      self.receiveValue = receiveValue
    }

    public func receive(subscription: any Subscription) {
      let accepted = lock.withLock {
        guard case .awaitingSubscription = status else { return false }
        status = .subscribed(subscription)
        return true
      }
      guard accepted else { return subscription.cancel() }
      subscription.request(.unlimited)
    }

    public func receive(_ input: Input) -> Subscribers.Demand {
      let action = lock.withLock { status.subscription == nil ? nil : receiveValue }
      action?(input)
      return .none
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
      let (wasSubscribed, closures) = lock.withLock { (status.subscription != nil, end()) }
      if wasSubscribed { closures.completion?(completion) }
    }

    public func cancel() {
      let (subscription, closures) = lock.withLock { (status.subscription, end()) }
      subscription?.cancel()
      _ = closures
    }

    /// Ends the sink, with the lock held. The closures are handed to the caller, so that they are
    /// released after the lock is: what they capture may run code in its `deinit`.
    private func end() -> (value: ((Input) -> Void)?, completion: ((Subscribers.Completion<Failure>) -> Void)?) {
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
  public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
    sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
  }
}
