import KVOLiteLocking

extension Subscribers {
  /// A subscriber that requests an unlimited number of values and hands them to closures.
  ///
  /// As Combine's: it requests `.unlimited` on subscription; it hands every value it receives
  /// to `receiveValue`, even one that arrives before its subscription, until it completes or is
  /// cancelled; a cancel before it has a subscription does nothing. On completion or cancel it
  /// releases its subscription and closures (outside its lock: what they capture may run code
  /// in its `deinit`). Thread-safe. It describes itself as "Sink".
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  {
    // @unchecked: the mutable state is behind `lock`.
    @usableFromInline let lock = Lock()
    @exclusivity(unchecked) @usableFromInline var status = SubscriptionStatus.awaitingSubscription
    /// The closure for values; `nil` once the sink has ended. Like `status`, only touched with
    /// `lock` held, so the runtime's exclusivity check (a call on every value) is left out.
    @exclusivity(unchecked) @usableFromInline var receiveValue: ((Input) -> Void)?
    /// The closure for the completion; `nil` once the sink has ended.
    @exclusivity(unchecked) @usableFromInline var receiveCompletion:
      ((Subscribers.Completion<Failure>) -> Void)?

    /// Creates a sink with a closure for values and one for the completion.
    @inlinable public init(
      receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
      receiveValue: @escaping (Input) -> Void
    ) {
      self.receiveCompletion = receiveCompletion
      self.receiveValue = receiveValue
    }

    /// Keeps the first subscription and requests `.unlimited`; cancels any later one.
    @inlinable public func receive(subscription: any Subscription) {
      guard lock.withLock({ status.accept(subscription) }) else { return subscription.cancel() }
      subscription.request(.unlimited)
    }

    /// Calls `receiveValue` (unless the sink has ended); always returns `.none`.
    @inlinable public func receive(_ input: Input) -> Subscribers.Demand {
      // Read without a generic `withLock`, whose result would be a closure of maximal
      // abstraction that the specialized caller then wraps in a thunk (an allocation per value).
      lock.lock()
      let action = receiveValue
      lock.unlock()
      action?(input)
      return .none
    }

    /// Ends the sink and calls `receiveCompletion` (the first time).
    @inlinable public func receive(completion: Subscribers.Completion<Failure>) {
      let ended = lock.withLock { end() }
      ended.completion?(completion)
    }

    /// Ends the sink and cancels its subscription, if it has one; before subscription, does
    /// nothing.
    @inlinable public func cancel() {
      let ended = lock.withLock { () -> Ended? in status.isSubscribed ? end() : nil }
      ended?.subscription?.cancel()
    }

    /// What a sink lets go of when it ends.
    @usableFromInline typealias Ended = (
      subscription: (any Subscription)?, value: ((Input) -> Void)?,
      completion: ((Subscribers.Completion<Failure>) -> Void)?
    )

    /// Ends the sink, with the lock held. The subscription and closures are handed to the
    /// caller, so that they are released after the lock is.
    @inlinable func end() -> Ended {
      defer {
        status = .terminal
        receiveValue = nil
        receiveCompletion = nil
      }
      return (status.subscription, receiveValue, receiveCompletion)
    }

    /// The name Combine gives this subscriber.
    public var description: String { "Sink" }
    /// The fields Combine's mirror of this subscriber shows.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
    /// The same as ``description``.
    public var playgroundDescription: Any { description }
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
