import Foundation

/// A value behind a lock the thread sanitizer understands (`NSLock`: `Synchronization.Mutex` is
/// opaque to it on Linux, which yields false reports).
public final class Locked<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched with `lock` held.
  private let lock = NSLock()
  private var value: Value

  /// A lock around `value`.
  public init(_ value: Value) { self.value = value }

  /// Runs `body` on the value with the lock held.
  public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
