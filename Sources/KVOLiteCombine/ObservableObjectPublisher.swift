/// The publisher of the synthesized `objectWillChange`: emits `()` before a change.
///
/// As Combine's, it ignores demand: every subscriber receives every ``send()``, whatever it
/// requested. It never completes. Thread-safe; its subscriptions describe themselves as
/// "ObservableObjectPublisher".
public final class ObservableObjectPublisher: Publisher, @unchecked Sendable {
  // @unchecked: `core` is thread-safe.
  /// The kind of values this publisher publishes.
  public typealias Output = Void
  /// The kind of errors this publisher might publish.
  public typealias Failure = Never

  @usableFromInline let core = SubjectCore<Void, Never>(
    kind: .ignoresDemand, name: "ObservableObjectPublisher")

  /// A publisher with no subscribers.
  public init() {}

  /// Sends the "will change" event to every subscriber.
  @inlinable
  public func send() {
    core.send(())
  }

  /// Attaches `subscriber`.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
    core.subscribe(subscriber, owner: self)
  }
}
