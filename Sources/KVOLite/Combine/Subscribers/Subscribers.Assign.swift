extension Subscribers {
  /// A subscriber that assigns every value to a property of an object.
  ///
  /// It holds the object strongly until it completes or is cancelled — storing the cancellable
  /// on that same object is a retain cycle (prefer `assign(to: &$property)` there).
  public final class Assign<Root, Input>: Subscriber, Cancellable, @unchecked Sendable {
    // @unchecked: the mutable state is behind `lock`.
    public typealias Failure = Never

    @usableFromInline let lock = Lock()
    @exclusivity(unchecked) @usableFromInline var status = SubscriptionStatus.awaitingSubscription
    /// The object, until the subscriber ends. (Settable only so that inlined code can end the
    /// subscriber; do not set it.)
    @exclusivity(unchecked) @usableFromInline var _object: Root?
    /// The object, until the subscriber ends.
    public var object: Root? { lock.withLock { _object } }
    /// The property assigned to.
    public let keyPath: ReferenceWritableKeyPath<Root, Input>

    /// Creates a subscriber that assigns values to `object[keyPath:]`.
    @inlinable public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
      _object = object
      self.keyPath = keyPath
    }

    @inlinable public func receive(subscription: any Subscription) {
      guard lock.withLock({ status.accept(subscription) }) else { return subscription.cancel() }
      subscription.request(.unlimited)
    }

    @inlinable public func receive(_ value: Input) -> Subscribers.Demand {
      let target = lock.withLock { !status.isSubscribed ? nil : _object }
      target?[keyPath: keyPath] = value
      return .none
    }

    @inlinable public func receive(completion: Subscribers.Completion<Never>) {
      let released = lock.withLock {
        defer {
          status = .terminal
          _object = nil
        }
        return _object
      }
      _ = released  // Released here, outside the lock.
    }

    @inlinable public func cancel() {
      let (subscription, released) = lock.withLock {
        defer {
          status = .terminal
          _object = nil
        }
        return (status.subscription, _object)
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
  @inlinable
  public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root)
    -> AnyCancellable
  {
    let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
    subscribe(subscriber)
    return AnyCancellable(subscriber)
  }
}
