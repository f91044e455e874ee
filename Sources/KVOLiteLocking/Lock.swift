#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// KVOLite's lock, shared by its modules: the platform's mutex (`pthread_mutex_t`, `os_unfair_lock` on Apple
/// platforms), allocated once so that it never moves.
///
/// Why the platform's mutex and not a lock built on `Synchronization`'s atomics: locking and
/// unlocking are calls into the C library, which the optimizer cannot see into, so it must
/// assume that they may release any object. It therefore never moves a retain of a value read
/// under the lock to after the unlock (where another thread may already have released the
/// value). With an inlined atomic store as the unlock, release builds did exactly that, and a
/// get racing a set read freed memory. The thread sanitizer also knows these calls, which it
/// does not for `Synchronization.Mutex` (its slow path lives in the uninstrumented toolchain
/// library).
///
/// The rule for every lock in KVOLite: a critical section copies or swaps state and returns;
/// it never calls out (handlers, getters, user closures, `==`, a `deinit` through a release).
/// What it replaced is released after unlocking.
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
  // @unchecked: the mutex is the synchronization.
  @usableFromInline package let mutex: UnsafeMutablePointer<LockPrimitive>

  @usableFromInline package init() {
    mutex = .allocate(capacity: 1)
    mutex.initializeLock()
  }

  deinit {
    mutex.destroyLock()
    mutex.deallocate()
  }

  @inlinable @inline(__always)
  package func lock() { mutex.acquire() }

  @inlinable @inline(__always)
  package func unlock() { mutex.release() }

  /// Runs `body` with the lock held and returns what it returns, copied before the unlock.
  /// `body` must not call out to user code.
  @inlinable @inline(__always)
  package func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    mutex.acquire()
    defer { mutex.release() }
    return try body()
  }
}

#if canImport(Darwin)
  /// The platform's mutex.
  @usableFromInline package typealias LockPrimitive = os_unfair_lock
#else
  /// The platform's mutex.
  @usableFromInline package typealias LockPrimitive = pthread_mutex_t
#endif

extension UnsafeMutablePointer where Pointee == LockPrimitive {
  /// Initializes the mutex at this (allocated, uninitialized) address.
  @usableFromInline
  package func initializeLock() {
    #if canImport(Darwin)
      initialize(to: os_unfair_lock())
    #else
      let status = pthread_mutex_init(self, nil)
      precondition(status == 0, "KVOLite: pthread_mutex_init failed (\(status))")
    #endif
  }

  /// Destroys the mutex, which must be unlocked.
  @usableFromInline
  package func destroyLock() {
    #if canImport(Darwin)
      deinitialize(count: 1)
    #else
      pthread_mutex_destroy(self)
    #endif
  }

  @inlinable @inline(__always)
  package func acquire() {
    #if canImport(Darwin)
      os_unfair_lock_lock(self)
    #else
      pthread_mutex_lock(self)
    #endif
  }

  @inlinable @inline(__always)
  package func release() {
    #if canImport(Darwin)
      os_unfair_lock_unlock(self)
    #else
      pthread_mutex_unlock(self)
    #endif
  }
}
