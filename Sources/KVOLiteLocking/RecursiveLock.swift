import Synchronization

/// A sleeping lock that the thread holding it may take again: what a subject holds while it
/// delivers to one subscriber, so that concurrent sends reach that subscriber one at a time (as
/// Combine's subjects do) while a subscriber that sends to the same subject from its own
/// `receive` (re-entrancy) does not deadlock.
///
/// Unlike ``Lock`` it is held while user code runs (a subscriber's `receive`): serializing those
/// calls is its purpose. Take it before, never while holding, the subscription's state lock.
@usableFromInline
package final class RecursiveLock: @unchecked Sendable {
  // @unchecked: `mutex` is the synchronization; `owner` is atomic; `depth` is touched only by
  // the thread that holds `mutex` (so its accesses are not checked for exclusivity at run time).
  @usableFromInline package let mutex: UnsafeMutablePointer<LockPrimitive>
  /// The thread that holds the lock (its ``ThreadIdentity``'s address), or 0. Only the owner
  /// stores its own identity, so a thread that reads its own there holds the lock.
  @usableFromInline package let owner = Atomic<UInt>(0)
  /// How many times the owner took the lock.
  @exclusivity(unchecked) @usableFromInline package var depth = 0

  @usableFromInline package init() {
    mutex = .allocate(capacity: 1)
    mutex.initializeLock()
  }

  deinit {
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Whether the calling thread holds the lock (inside ``withLock(_:)``).
  package var isHeldByCurrentThread: Bool {
    owner.load(ordering: .relaxed) == ThreadIdentity.current.address
  }

  /// Runs `body` with the lock held, counted as a delivery (see ``DeliveryScope``): a
  /// cancellation inside it does not wait for deliveries on other threads.
  @inlinable
  package func withLock<R>(_ body: () throws -> R) rethrows -> R {
    // The delivery count's address is the thread's record's: its identity.
    let thread = DeliveryScope.enter()
    let me = UInt(bitPattern: thread)
    if owner.load(ordering: .relaxed) == me {
      depth += 1
    } else {
      mutex.acquire(rank: .delivery, name: "a delivery lock")
      owner.store(me, ordering: .relaxed)
      depth = 1
    }
    defer {
      depth -= 1
      if depth == 0 {
        owner.store(0, ordering: .relaxed)
        mutex.releaseChecked()
      }
      DeliveryScope.leave(thread)
    }
    return try body()
  }
}
