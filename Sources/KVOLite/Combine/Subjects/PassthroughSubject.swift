/// A subject that broadcasts values to its subscribers, without keeping any.
///
/// A value sent while a subscriber has no demand is dropped for that subscriber. Thread-safe.
///
///     let subject = PassthroughSubject<String, Never>()
///     let cancellable = subject.sink { print($0) }
///     subject.send("a")
///     // Prints: "a"
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  @usableFromInline let core = SubjectCore<Output, Failure>(current: nil)

  public init() {}

  @inlinable public func send(_ value: Output) { core.send(value) }
  public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }
  public func send(subscription: any Subscription) { core.send(subscription: subscription) }

  @inlinable public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    core.subscribe(subscriber)
  }
}

/// A subject that wraps a value and publishes it, and every new value, to its subscribers.
///
/// A new subscriber receives the current value on its first request. A subscriber without
/// demand when values are sent receives the latest one when it next asks. Thread-safe.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  @usableFromInline let core: SubjectCore<Output, Failure>

  /// Creates the subject with its initial value.
  public init(_ value: Output) {
    core = SubjectCore(current: value)
  }

  /// The current value; setting it sends it.
  @inlinable public var value: Output {
    get { core.value! }
    set { send(newValue) }
  }

  @inlinable public func send(_ value: Output) { core.send(value) }
  public func send(completion: Subscribers.Completion<Failure>) { core.send(completion: completion) }
  public func send(subscription: any Subscription) { core.send(subscription: subscription) }

  @inlinable public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    core.subscribe(subscriber)
  }
}
