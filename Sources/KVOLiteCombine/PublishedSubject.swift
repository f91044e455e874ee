import KVOLiteLocking

/// What a ``Published`` property sends through (its channel): its subject and its owner's
/// `objectWillChange`. Subscriptions of `$property` keep the channel (not the property's box)
/// alive, and show it as their mirror's `parent` and `subject`, as Combine's show its
/// `Published.PublishedSubject`.
@usableFromInline
final class PublishedSubject<Value>: @unchecked Sendable {
  // @unchecked: `core` is thread-safe; `willChange` is behind `lock`.
  @usableFromInline let core: SubjectCore<Value, Never>
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var willChange: ObservableObjectPublisher?
  /// Held by a set while its subscribers receive the value and until it is stored, so that sets
  /// from several threads reach the subscribers in the order they are stored: the last value a
  /// subscriber sees is the value the property keeps. Recursive, as a delivery lock: a
  /// subscriber may set the property again from inside (on its thread, at once).
  @usableFromInline let sets = RecursiveLock()
  /// What runs once the set in progress has stored its value (see `Published+AfterStore`).
  /// Touched only by the thread holding `sets`.
  @exclusivity(unchecked) @usableFromInline var afterStore: [() -> Void] = []

  init(_ value: Value) {
    core = SubjectCore(kind: .published, name: "PublishedSubject", current: value)
  }

  var objectWillChange: ObservableObjectPublisher? { lock.withLock { willChange } }

  /// Makes `publisher` the owner's `objectWillChange` unless one is installed; returns the
  /// installed one.
  func installObjectWillChange(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher
  {
    lock.withLock {
      if let installed = willChange { return installed }
      willChange = publisher
      return publisher
    }
  }

  /// `objectWillChange`, then the value to subscribers, then the value stored.
  @inlinable
  func publish(_ newValue: Value) {
    lock.withLock { willChange }?.send()
    sets.withLock { storing { core.send(newValue) } }
  }
}
