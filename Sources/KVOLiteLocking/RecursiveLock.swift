#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A sleeping lock that the thread holding it may take again: what a subject holds while it
/// delivers to one subscriber, so that concurrent sends reach that subscriber one at a time (as
/// Combine's subjects do) while a subscriber that sends to the same subject from its own
/// `receive` (re-entrancy) does not deadlock.
///
/// Unlike ``Lock`` it is held while user code runs (a subscriber's `receive`): serializing those
/// calls is its purpose. Take it before, never while holding, the subscription's state lock.
@usableFromInline
package final class RecursiveLock: @unchecked Sendable {
  // @unchecked: the mutex is the synchronization.
  @usableFromInline package let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @usableFromInline package init() {
    mutex = .allocate(capacity: 1)
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the lock held; `body` may call out, and may take the lock again. The
  /// thread counts as delivering meanwhile (``DeliveryScope``): a delivery on another thread
  /// may be waiting for this lock, so a cancellation made in `body` must not wait for it.
  @inlinable
  package func withLock<R>(_ body: () throws -> R) rethrows -> R {
    pthread_mutex_lock(mutex)
    let scope = DeliveryScope.enter()
    defer {
      DeliveryScope.leave(scope)
      pthread_mutex_unlock(mutex)
    }
    return try body()
  }
}
