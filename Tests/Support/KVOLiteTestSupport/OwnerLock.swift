import Foundation

/// A recursive lock that knows which thread holds it, for models whose owner must serialize
/// every use of a relationship kept by indexed accessors (as `IndexedAccessors` asks): the
/// owner's code runs in ``withLock(_:)``, and each accessor in ``check(_:)``, which tells it
/// whether the calling thread was inside ``withLock(_:)``, so that it can count the calls made
/// without the lock.
///
/// Thread-safe; bodies run with the lock held (test models only: user code under a lock is
/// what KVOLite itself never does).
public final class OwnerLock: @unchecked Sendable {
  // @unchecked: `holder` is behind `lock`.
  private let lock = NSRecursiveLock()
  /// The thread inside ``withLock(_:)``, and how deep.
  private var holder: (thread: pthread_t, depth: Int)?

  /// A lock no thread holds.
  public init() {}

  /// Runs `body` with the lock held, as the owner (recursively: observers called inside may
  /// take it again).
  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock.lock()
    holder = (pthread_self(), (holder?.depth ?? 0) + 1)
    defer {
      holder = holder!.depth == 1 ? nil : (holder!.thread, holder!.depth - 1)
      lock.unlock()
    }
    return try body()
  }

  /// Runs `body` with the lock held, telling it whether the calling thread held it already as
  /// the owner (inside ``withLock(_:)``).
  public func check<Result>(_ body: (_ heldByOwner: Bool) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(holder.map { pthread_equal($0.thread, pthread_self()) != 0 } ?? false)
  }
}
