import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts the callers inside something (deliveries iterating an observer list, calls of an
/// element observation's handler, a two-way binding's crossings) so that ending it can wait for
/// them: KVOLite's one in-flight wait.
///
/// - ``enter()`` counts the caller in, unless the gate is closed (then it returns `false` and
///   the caller must not go in); ``leave()`` counts it out, after its last use of what the gate
///   guards.
/// - ``closeAndWait()`` closes the gate (no caller enters after) and returns once every caller
///   inside has left, except when the calling thread is itself inside a delivery
///   (``DeliveryScope``): then it only closes. A delivery in progress elsewhere may be waiting
///   for the one this thread is in (the delivery lock it holds, a handler before it in a
///   chain), and waiting for it would deadlock; the owner documents that a delivery already
///   running on another thread may then finish after it returns. The same inside an in-place
///   mutation of an `@Observed` property (an element's `deinit` ending an observation): the
///   handler running elsewhere may be waiting for that mutation to end.
///
/// The waiter checks again and again, yielding at first and then sleeping a little longer each
/// time, up to a millisecond: waits are rare (a cancellation racing a delivery) and last as long
/// as a handler runs, so callers pay nothing to signal. Nobody waits while holding a lock.
///
/// One word: bit 0 is *closed*, the rest twice the number of callers inside. A gate is
/// `~Copyable` and lives where its owner lives (a stored property of a class, or the header of
/// an observer list, reached through a pointer).
@frozen @usableFromInline
package struct InFlightGate: ~Copyable, Sendable {
  @usableFromInline let word: Atomic<UInt>

  /// An open gate with nobody inside.
  @inlinable package init() { word = Atomic(0) }

  /// Counts the caller in; `false` (counting nothing) once the gate is closed.
  @inlinable @inline(__always)
  package func enter() -> Bool {
    schedulePoint("InFlightGate.enter")
    let old = word.add(2, ordering: .acquiring).oldValue
    if _slowPath(old & 1 != 0) {
      word.subtract(2, ordering: .releasing)
      return false
    }
    return true
  }

  /// Counts the caller out (it entered); after this it must not use what the gate guards.
  @inlinable @inline(__always)
  package func leave() {
    schedulePoint("InFlightGate.leave")
    word.subtract(2, ordering: .releasing)
  }

  /// Whether nobody is inside now.
  @inlinable package var isIdle: Bool { word.load(ordering: .acquiring) >> 1 == 0 }

  /// Whether the gate is closed.
  @inlinable package var isClosed: Bool { word.load(ordering: .acquiring) & 1 != 0 }

  /// Closes the gate: every later ``enter()`` fails. Closing twice is closing once.
  package func close() {
    schedulePoint("InFlightGate.close")
    word.bitwiseOr(1, ordering: .acquiringAndReleasing)
  }

  /// A schedule point (debug builds: see `Scheduling`); nothing in release builds.
  @inlinable @inline(__always)
  func schedulePoint(_ name: StaticString) {
    #if DEBUG
      Scheduling.reach(.step(name))
    #endif
  }

  /// Closes the gate, then waits until nobody is inside, unless the calling thread is inside a
  /// delivery or an in-place mutation of an `@Observed` property (see the type's discussion).
  /// Returns whether it waited until the gate was empty.
  @discardableResult
  package func closeAndWait() -> Bool {
    close()
    guard !DeliveryScope.isDelivering, !ThreadIdentity.isMutatingInPlace else { return false }
    var pause: UInt32 = 0
    while word.load(ordering: .acquiring) != 1 {
      #if DEBUG
        // Under a test's schedule, the wait is a point that goes on once nobody is inside.
        if ThreadIdentity.record.pointee.schedule != nil {
          withUnsafePointer(to: self) { gate in
            Scheduling.reach(.wait("InFlightGate.closeAndWait") { gate.pointee.isIdle })
          }
          continue
        }
      #endif
      if pause < 16 {
        sched_yield()
      } else {
        usleep(min(1_000, (pause - 15) * 50))
      }
      pause += 1
    }
    return true
  }
}
