/// A subject that broadcasts values to its subscribers, without keeping any.
///
/// A value sent while a subscriber has no demand is dropped for that subscriber. When it
/// subscribes to publishers (`publisher.subscribe(subject)`), it asks them for values only once
/// one of its own subscribers has asked, and cancels them when it is released. Each
/// subscription keeps the subject alive until it finishes or is cancelled. Thread-safe; see
/// ``Subject`` for concurrent sends.
///
///     let subject = PassthroughSubject<String, Never>()
///     let cancellable = subject.sink { print($0) }
///     subject.send("a")
///     // Prints: "a"
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  // @unchecked: `core` is thread-safe.
  @usableFromInline let core = SubjectCore<Output, Failure>(
    kind: .passthrough, name: "PassthroughSubject")

  /// A subject with no subscribers.
  public init() {}

  deinit { core.cancelUpstreams() }

  /// Sends `value` to each subscriber that has demand; nothing after completion.
  @inlinable public func send(_ value: Output) { core.send(value) }
  /// Sends the completion to every subscriber, once; they are then released.
  public func send(completion: Subscribers.Completion<Failure>) {
    core.send(completion: completion)
  }
  /// Keeps an upstream subscription (see the type's documentation).
  public func send(subscription: any Subscription) { core.send(subscription: subscription) }

  /// Attaches `subscriber`; after completion it receives an empty subscription and the
  /// completion at once.
  @inlinable public func receive<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    core.subscribe(subscriber, owner: self)
  }
}
