extension Subscribers {
  /// A subscriber that assigns every value to a property of an object.
  ///
  /// It holds the object strongly until it completes or is cancelled — storing the cancellable
  /// on that same object is a retain cycle (prefer `assign(to: &$property)` there).
  public final class Assign<Root, Input>: Subscriber, Cancellable, @unchecked Sendable {
    // @unchecked: the mutable state is behind `lock`.
    public typealias Failure = Never

    private let lock = Lock()
    private var status = SubscriptionStatus.awaitingSubscription
    /// The object, until the subscriber ends.
    public private(set) var object: Root?
    /// The property assigned to.
    public let keyPath: ReferenceWritableKeyPath<Root, Input>

    /// Creates a subscriber that assigns values to `object[keyPath:]`.
    public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
      self.object = object
      self.keyPath = keyPath
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

    public func receive(_ value: Input) -> Subscribers.Demand {
      let target = lock.withLock { status.subscription == nil ? nil : object }
      target?[keyPath: keyPath] = value
      return .none
    }

    public func receive(completion: Subscribers.Completion<Never>) {
      let released = lock.withLock {
        defer {
          status = .terminal
          object = nil
        }
        return object
      }
      _ = released  // Released here, outside the lock.
    }

    public func cancel() {
      let (subscription, released) = lock.withLock {
        defer {
          status = .terminal
          object = nil
        }
        return (status.subscription, object)
      }
      _ = released
      subscription?.cancel()
    }
  }
}

extension Publisher where Failure == Never {
  /// Assigns every value to a property of an object, which is held until the subscription ends.
  ///
  ///     let cancellable = viewModel.$firstName
  ///       .dropFirst().removeDuplicates()
  ///       .assign(to: \.recipient.firstName, on: package)
  public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root)
    -> AnyCancellable
  {
    let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
    subscribe(subscriber)
    return AnyCancellable(subscriber)
  }
}
