import KVOLiteLocking

/// The storage of a ``Published`` property: its channel (value, subscribers, the owner's
/// `objectWillChange`) and what `assign(to: &$property)` attached.
@usableFromInline
final class PublishedBox<Value>: @unchecked Sendable {
  // @unchecked: `channel` is thread-safe; `assigned` is behind `lock`.
  @usableFromInline let channel: PublishedSubject<Value>
  private let lock = Lock()
  private var assigned: [AnyCancellable] = []

  init(_ value: Value) {
    channel = PublishedSubject(value)
  }

  @inlinable var value: Value { channel.core.value }
  @inlinable var core: SubjectCore<Value, Never> { channel.core }

  /// The owner's `objectWillChange`, installed by ``ObservableObject``'s synthesized getter.
  var objectWillChange: ObservableObjectPublisher? { channel.objectWillChange }

  /// Makes `publisher` the owner's `objectWillChange` unless one is installed; returns the
  /// installed one.
  func installObjectWillChange(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher
  {
    channel.installObjectWillChange(publisher)
  }

  /// A set: `objectWillChange`, then the value to subscribers, then the value stored.
  @inlinable func publish(_ newValue: Value) { channel.publish(newValue) }

  /// Keeps a subscription that assigns into this property for as long as the property lives.
  /// The subscription holds only the channel, never the box, so nothing here is a cycle.
  @usableFromInline
  func attach(_ cancellable: AnyCancellable) {
    lock.withLock { assigned.append(cancellable) }
  }
}
