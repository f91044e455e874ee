import KVOLiteLocking

/// A publisher of the values of an observable object's key path: what `publisher(for:)`
/// returns, as Foundation's `NSObject.KeyValueObservingPublisher`.
///
/// Each subscription registers its own observation. Every notification publishes the value
/// read at that moment (`.prior` notifications therefore publish the value from before the
/// change). With `.initial`, the current value is held until the subscriber first asks for a
/// value; other values that arrive without demand are dropped. Unlike Apple's, a request for
/// `.max(n)` delivers `n` values.
///
/// The publisher holds its object strongly; its subscriptions do not. Cancelling a subscription
/// ends its observation.
///
/// Two publishers are equal when they observe the same object (by identity), the same key path
/// (typed, or the same string) and the same options, as Foundation's are.
///
/// Thread-safe. Sets of the key on several threads at once reach the subscriber one at a time,
/// as Combine requires (each waits for the one in progress, as a subject's subscribers do), so
/// `scan` and other stateful operators downstream see every value. A subscriber that sets the
/// key again from inside `receive` gets the new value at once, on its thread. Cancelling
/// returns after a value in progress on another thread was delivered, except when cancelling
/// from inside a delivery (then it does not wait; see ``/KVOLite/ObservationToken``).
public struct KeyValueObservingPublisher<Subject: KeyValueObservable, Value>: Publisher, Equatable {
  /// The kind of values this publisher publishes.
  public typealias Output = Value
  /// The kind of errors this publisher might publish.
  public typealias Failure = Never

  /// The observed object.
  public let object: Subject
  /// The options each subscription observes with.
  public let options: ObservingOptions
  /// The key path observed: a typed key path, or a string one.
  @usableFromInline let path: AnyHashable
  @usableFromInline let observe:
    (Subject, ObservingOptions, @escaping (Value) -> Void) -> ObservationToken?

  @usableFromInline
  init(
    object: Subject, path: AnyHashable, options: ObservingOptions,
    observe: @escaping (Subject, ObservingOptions, @escaping (Value) -> Void) -> ObservationToken?
  ) {
    self.object = object
    self.path = path
    self.options = options
    self.observe = observe
  }

  /// A publisher of `object`'s values at `keyPath`, as Foundation's initializer; unlike
  /// `publisher(for:options:)`, it does not check the key path until a subscriber attaches
  /// (a key path that cannot be observed then stops the program).
  @inlinable
  public init(object: Subject, keyPath: KeyPath<Subject, Value>, options: ObservingOptions) {
    self.init(object: object, path: keyPath, options: options) { object, options, send in
      // A post-change notification carries the value read at did-time, which is what reading
      // the key path would give; only prior notifications need the read.
      object.observe(keyPath, options: options.union(.new)) { object, change in
        if !change.isPrior, let value = change.newValue, change.kind == .setting {
          send(value)
        } else {
          send(object[keyPath: keyPath])
        }
      }
    }
  }

  /// Whether both observe the same object (the same instance), key path and options.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.object === rhs.object && lhs.path == rhs.path && lhs.options == rhs.options
  }

  /// A publisher of `Void` each time this one publishes, as Foundation's.
  public func didChange() -> Publishers.Map<Self, Void> {
    map { _ in () }
  }

  /// Attaches `subscriber`: it receives its subscription, then values within the demand it
  /// signals, then at most one completion, as ``/KVOLiteCombine/Publisher/receive(subscriber:)`` states.
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
    let subscription = KeyValueObservingSubscription(downstream: subscriber)
    subscription.token = observe(object, options) { [weak subscription] in subscription?.changed($0)
    }
    subscriber.receive(subscription: subscription)
  }
}

@usableFromInline
final class KeyValueObservingSubscription<Downstream: Subscriber>: Subscription,
  @unchecked Sendable
where Downstream.Failure == Never {
  // @unchecked: the mutable state is behind `lock`.
  @usableFromInline typealias Value = Downstream.Input

  @usableFromInline let lock = Lock()
  /// Held while the subscriber receives a value, so that the calls reach it one at a time
  /// (recursive: a subscriber may set the key again from inside).
  @usableFromInline let delivery = RecursiveLock()
  @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
  @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
  @exclusivity(unchecked) @usableFromInline var hasRequested = false
  @exclusivity(unchecked) @usableFromInline var hasSeenValue = false
  /// The first value (the `.initial` one), until the first request.
  @exclusivity(unchecked) @usableFromInline var pending: Value?
  /// The observation; set once, right after creation.
  @exclusivity(unchecked) @usableFromInline var token: ObservationToken?

  @inlinable init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable func changed(_ value: Value) {
    delivery.withLock {
      lock.lock()
      guard let downstream else { return lock.unlock() }
      let isFirst = !hasSeenValue
      hasSeenValue = true
      guard demand > 0 else {
        if !hasRequested, isFirst { pending = value }
        return lock.unlock()
      }
      demand -= 1
      lock.unlock()
      let more = downstream.receive(value)
      lock.withLock { demand += more }
    }
  }

  @inlinable func request(_ newDemand: Subscribers.Demand) {
    lock.lock()
    guard downstream != nil else { return lock.unlock() }
    hasRequested = true
    guard pending != nil else {
      demand += newDemand
      return lock.unlock()
    }
    lock.unlock()
    // The held initial value goes first, delivered like any other (one call at a time). The
    // demand is added under the delivery lock: added before, it could be taken by a change
    // delivered on another thread in between, which would overtake the initial value.
    delivery.withLock {
      lock.lock()
      demand += newDemand
      guard let downstream, let value = pending, demand > 0 else { return lock.unlock() }
      pending = nil
      demand -= 1
      lock.unlock()
      let more = downstream.receive(value)
      lock.withLock { demand += more }
    }
  }

  @inlinable func cancel() {
    // What is let go of is released after unlocking (a release may run a deinit).
    let (token, taken) = lock.withLock { (self.token, (downstream.take(), pending.take())) }
    token?.invalidate()
    _ = taken
  }
}

extension KeyValueObservable {
  /// A publisher of the values of a typed key path (one declared key or a chain), as
  /// Foundation's `publisher(for:options:)`.
  ///
  ///     person.publisher(for: \.firstName).sink { print($0) }  // the current name, then each new one
  ///
  /// - Parameters:
  ///   - keyPath: The declared key, or a chain of declared keys through to-one relationships.
  ///   - options: What to observe with; by default `[.initial, .new]`. `.old` and `.new` make
  ///     no difference to the values published; `.prior` adds the value from before each
  ///     change.
  ///
  /// A key path that cannot be observed stops the program, as with
  /// ``observe(_:options:changeHandler:)-(KeyPath<Self,Value>,_,_)``.
  @inlinable
  public func publisher<Value>(
    for keyPath: KeyPath<Self, Value>, options: ObservingOptions = [.initial, .new]
  ) -> KeyValueObservingPublisher<Self, Value> {
    observe(keyPath) { _, _ in }.invalidate()
    return KeyValueObservingPublisher(object: self, keyPath: keyPath, options: options)
  }

  /// A publisher of the values of a string key path; see the typed key path form of
  /// `publisher(for:options:)`.
  public func publisher(for keyPath: String, options: ObservingOptions = [.initial, .new])
    throws(KeyValueError) -> KeyValueObservingPublisher<Self, Any?>
  {
    try observe(keyPath) { _ in }.invalidate()
    return KeyValueObservingPublisher(object: self, path: keyPath, options: options) {
      object, options, send in
      try? object.observe(keyPath, options: options) { [weak object] _ in
        guard let object else { return }
        send((try? object.value(forKeyPath: keyPath)) ?? nil)
      }
    }
  }
}
