/// A subject that wraps a value and publishes it, and every new value, to its subscribers.
///
/// A new subscriber receives the current value on its first request. A subscriber without
/// demand when values are sent receives the latest one when it next asks. It asks publishers it
/// subscribes to for values at once, and cancels them when it is released. Each subscription
/// keeps the subject alive until it finishes or is cancelled. Thread-safe; see ``Subject`` for
/// concurrent sends.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  // @unchecked: `core` is thread-safe.
  @usableFromInline let core: SubjectCore<Output, Failure>

  /// Creates the subject with its initial value.
  public init(_ value: Output) {
    core = SubjectCore(kind: .currentValue, name: "CurrentValueSubject", current: value)
  }

  deinit { core.cancelUpstreams() }

  /// The current value. Setting it sends it, as ``send(_:)`` does; after completion, setting
  /// it still stores it (as in Combine), though nothing is sent.
  @inlinable public var value: Output {
    get { core.value }
    set {
      if core.isCompleted { core.store(newValue) } else { core.send(newValue) }
    }
  }

  /// Stores `value` and sends it to each subscriber that has demand; after completion, does
  /// nothing (the value is not stored).
  @inlinable public func send(_ value: Output) { core.send(value) }
  /// Sends the completion to every subscriber, once; they are then released.
  public func send(completion: Subscribers.Completion<Failure>) {
    core.send(completion: completion)
  }
  /// Keeps an upstream subscription and requests `.unlimited` from it.
  public func send(subscription: any Subscription) { core.send(subscription: subscription) }

  /// Attaches `subscriber`; after completion it receives an empty subscription and the
  /// completion at once.
  @inlinable public func receive<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    core.subscribe(subscriber, owner: self)
  }
}
