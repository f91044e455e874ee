import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small test-and-test-and-set lock for very short critical sections.
///
/// Every set of an ``Observed`` property takes its object's lock once, so the lock is on the
/// hottest path of the library. `Synchronization.Mutex` unlocks with a compare-and-swap (it must
/// look for futex waiters); this lock unlocks with a plain releasing store, which halves the
/// uncontended cost. The price is that waiters spin and then yield instead of sleeping, which is
/// only acceptable because no critical section in KVOLite calls out, allocates much or blocks:
/// callbacks, getters and user code always run after `unlock()`.
///
/// It is a noncopyable struct so that it lives inline in its owner (one allocation fewer per
/// observable object).
@usableFromInline
struct Lock: ~Copyable, @unchecked Sendable {
  // 0 = free, 1 = held. Atomic so that the thread sanitizer sees the acquire/release pairs.
  @usableFromInline let word = Atomic<UInt8>(0)

  @usableFromInline init() {}

  @inlinable @inline(__always)
  func lock() {
    if word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged { return }
    lockSlow()
  }

  @usableFromInline @inline(never)
  func lockSlow() {
    var spins = 0
    while true {
      // Test before test-and-set: spin on a load so the cache line is not bounced.
      if word.load(ordering: .relaxed) == 0,
        word.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
      {
        return
      }
      spins += 1
      if spins > 64 { sched_yield() }
    }
  }

  @inlinable @inline(__always)
  func unlock() {
    word.store(0, ordering: .releasing)
  }

  /// Runs `body` with the lock held. `body` must not call out to user code.
  @inlinable @inline(__always)
  func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}
