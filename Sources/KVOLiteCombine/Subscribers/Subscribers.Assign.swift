import KVOLiteLocking

extension Subscribers {
  /// A subscriber that assigns every value to a property of an object.
  ///
  /// As Combine's: it requests `.unlimited` on its first subscription (and cancels any later
  /// one); it assigns only while subscribed; a completion or cancel before subscription does
  /// nothing. It holds the object strongly until it completes or is cancelled, and releases it
  /// then, outside its lock; storing the cancellable on that same object is a retain cycle
  /// (prefer `assign(to: &$property)` there). Thread-safe. It describes itself as
  /// "Assign Root.".
  public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  {
    // @unchecked: the mutable state is behind `lock`.
    /// The kind of errors this subscriber receives: none, as in Combine.
    public typealias Failure = Never

    @usableFromInline let lock = Lock()
    @exclusivity(unchecked) @usableFromInline var status = SubscriptionStatus.awaitingSubscription
    /// The object, until the subscriber ends (a ``Slot``, not a `Root?`: see there).
    @usableFromInline let target: Slot<Root>
    /// The object, until the subscriber ends.
    public var object: Root? { lock.withLock { target.valueIfFull } }
    /// The property assigned to.
    public let keyPath: ReferenceWritableKeyPath<Root, Input>

    /// Creates a subscriber that assigns values to `object[keyPath:]`.
    @inlinable public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
      target = Slot(object)
      self.keyPath = keyPath
    }

    /// Keeps the first subscription and requests `.unlimited`; cancels any later one.
    @inlinable public func receive(subscription: any Subscription) {
      guard lock.withLock({ status.accept(subscription) }) else { return subscription.cancel() }
      subscription.request(.unlimited)
    }

    /// Assigns `value` to the object's property, if subscribed; returns `.none`.
    @inlinable public func receive(_ value: Input) -> Subscribers.Demand {
      lock.lock()
      guard status.isSubscribed, self.target.isFull else {
        lock.unlock()
        return .none
      }
      let target = self.target.value
      lock.unlock()
      target[keyPath: keyPath] = value
      return .none
    }

    /// Ends the subscriber and releases the object, if subscribed.
    @inlinable public func receive(completion: Subscribers.Completion<Never>) {
      _ = end()
    }

    /// Ends the subscriber, releases the object and cancels the subscription, if subscribed.
    @inlinable public func cancel() {
      end()?.cancel()
    }

    /// Ends a subscribed subscriber: returns its subscription. The object is released after the
    /// lock (its `deinit` may run code).
    @inlinable func end() -> (any Subscription)? {
      let (subscription, released) = lock.withLock { () -> ((any Subscription)?, Root?) in
        guard let subscription = status.subscription else { return (nil, nil) }
        status = .terminal
        return (subscription, target.take())
      }
      withExtendedLifetime(released) {}
      return subscription
    }

    /// The name Combine gives this subscriber.
    public var description: String { "Assign \(Root.self)." }
    /// The fields Combine's mirror of this subscriber shows.
    public var customMirror: Mirror {
      let (object, status) = lock.withLock { (target.valueIfFull, self.status) }
      return Mirror(
        self, children: [("object", object as Any), ("keyPath", keyPath), ("status", status)])
    }
    /// The same as ``description``.
    public var playgroundDescription: Any { description }
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
