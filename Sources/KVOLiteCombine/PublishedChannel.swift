import KVOLiteLocking

/// What a ``Published`` property sends through: its subject and its owner's `objectWillChange`.
/// Subscriptions of `$property` keep the channel (not the property's box) alive.
@usableFromInline
final class PublishedChannel<Value>: @unchecked Sendable {
  // @unchecked: `core` is thread-safe; `willChange` is behind `lock`.
  @usableFromInline let core: SubjectCore<Value, Never>
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var willChange: ObservableObjectPublisher?

  init(_ value: Value) {
    core = SubjectCore(kind: .published, name: "PublishedSubject", current: value)
  }

  var objectWillChange: ObservableObjectPublisher? {
    get { lock.withLock { willChange } }
    set { lock.withLock { willChange = newValue } }
  }

  /// `objectWillChange`, then the value to subscribers, then the value stored.
  @inlinable
  func publish(_ newValue: Value) {
    lock.withLock { willChange }?.send()
    core.send(newValue)
  }
}
