import KVOLiteLocking

/// A type-erased cancellable that cancels when it is released: Combine's `AnyCancellable`.
///
/// Keep it (or ``store(in:)-(Set<AnyCancellable>)`` it) for as long as the subscription should
/// live. Thread-safe; cancelling twice does nothing.
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
  // @unchecked: the cancel closure is taken exactly once, under the lock.
  private let lock = Lock()
  private var cancelAction: (() -> Void)?

  /// Wraps a closure that is called once, on ``cancel()`` or release.
  public init(_ cancel: @escaping () -> Void) {
    cancelAction = cancel
  }

  /// Wraps another cancellable.
  public init<C: Cancellable>(_ canceller: C) {
    cancelAction = canceller.cancel
  }

  /// Cancels the wrapped activity; later calls, and the release of this object, do nothing more.
  /// Thread-safe.
  public func cancel() {
    let action = lock.withLock {
      defer { cancelAction = nil }
      return cancelAction
    }
    // Called, and released, outside the lock.
    action?()
  }

  deinit { cancel() }

  /// Keeps this cancellable in `set`.
  public func store(in set: inout Set<AnyCancellable>) {
    set.insert(self)
  }

  /// Keeps this cancellable in `collection`.
  public func store<C: RangeReplaceableCollection>(in collection: inout C)
  where C.Element == AnyCancellable {
    collection.append(self)
  }

  /// Whether the two are equal.
  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
