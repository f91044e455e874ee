import KVOLiteLockPrimitive

/// KVOLite's lock, shared by its modules: one word (`kvolite_lock_t`, a futex mutex on Linux,
/// `os_unfair_lock` on Apple platforms; see `KVOLiteLockPrimitive`), allocated once so that it
/// never moves.
///
/// Why a lock whose acquire and release are calls into C, and not one built on
/// `Synchronization`'s atomics: the optimizer cannot see into those calls, so it must assume
/// that they may release any object. It therefore never moves a retain of a value read under
/// the lock to after the unlock (where another thread may already have released the value).
/// With an inlined atomic store as the unlock, release builds did exactly that, and a get
/// racing a set read freed memory. The thread sanitizer sees the atomic operations inside the
/// calls (the C target is built with it), which it does not for `Synchronization.Mutex` (its
/// slow path lives in the uninstrumented toolchain library).
///
/// The rule for every lock in KVOLite: a critical section copies or swaps state and returns;
/// it never calls out (handlers, getters, user closures, `==`, a `deinit` through a release).
/// What it replaced is released after unlocking.
@usableFromInline
package struct Lock: ~Copyable, @unchecked Sendable {
  // @unchecked: the lock is the synchronization.
  @usableFromInline package let mutex: UnsafeMutablePointer<LockPrimitive>
  #if DEBUG
    /// The lock's place in the lock order, and its name in that order's messages.
    @usableFromInline let rank: LockRank
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt
    @usableFromInline let schedules: Bool
  #endif

  /// A lock of rank `rank` in the one lock order (``LockRank``): a leaf, unless it is a links
  /// observation's. `file` and `line` name it in the order's messages (debug builds check the
  /// order; release builds keep none of these). Its acquires are schedule points (see
  /// ``Scheduling``) unless `schedules` is `false`: a lock around a process-wide cache, whose
  /// interleavings change nothing an observer sees, and whose holder never stops at a point.
  @usableFromInline package init(
    rank: LockRank = .leaf, schedules: Bool = true, file: StaticString = #fileID,
    line: UInt = #line
  ) {
    mutex = .allocate(capacity: 1)
    mutex.initializeLock()
    #if DEBUG
      (self.rank, self.file, self.line, self.schedules) = (rank, file, line, schedules)
    #endif
  }

  deinit {
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inlinable @inline(__always)
  package func lock() {
    #if DEBUG
      mutex.acquire(rank: rank, name: file, line: line, schedules: schedules)
    #else
      mutex.acquire()
    #endif
  }

  @inlinable @inline(__always)
  package func unlock() { mutex.releaseChecked() }

  /// Runs `body` with the lock held and returns what it returns, copied before the unlock.
  /// `body` must not call out to user code.
  @inlinable @inline(__always)
  package func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// The lock's word: zero when unlocked.
@usableFromInline package typealias LockPrimitive = kvolite_lock_t

extension UnsafeMutablePointer where Pointee == LockPrimitive {
  /// Initializes the lock at this (allocated, uninitialized) address, unlocked.
  @usableFromInline
  package func initializeLock() {
    initialize(to: kvolite_lock_t(state: 0))
  }

  @inlinable @inline(__always)
  package func acquire() {
    kvolite_lock_acquire(self)
  }

  @inlinable @inline(__always)
  package func release() {
    kvolite_lock_release(self)
  }
}

/// The table of property locks: `count` locks, 64 bytes apart, unlocked when the program
/// starts (a C global, so finding it costs no lazy initialization).
@usableFromInline
package enum PropertyLockTable {
  /// How many locks the table holds.
  @inlinable package static var count: Int { Int(KVOLITE_PROPERTY_LOCK_COUNT) }

  /// The table's first lock.
  @inlinable package static var base: UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(kvolite_property_lock_table())
  }
}
