#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Waiting for something other threads finish, without a lock on their side: used only where
/// a cancellation waits for deliveries in flight on other threads (an ``ObservationToken``, a
/// two-way binding), which is rare, and lasts as long as a handler runs. Deliveries then pay
/// nothing to signal; the waiter checks again, yielding at first and then sleeping a little
/// longer each time, up to a millisecond.
package enum Parking {
  /// Returns when `isDone` returns `true`. `isDone` reads atomics, or takes a ``Lock`` briefly.
  package static func wait(until isDone: () -> Bool) {
    var pause: UInt32 = 0
    while !isDone() {
      if pause < 16 {
        sched_yield()
        pause += 1
      } else {
        usleep(min(1_000, (pause - 15) * 50))
        pause += 1
      }
    }
  }
}
