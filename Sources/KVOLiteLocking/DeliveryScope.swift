import KVOLiteLockPrimitive

/// Counts, per thread, the deliveries in progress: KVOLite calling an observation's handler,
/// a subscriber with a delivery lock (``RecursiveLock``) held, a two-way binding crossing.
///
/// A thread inside a delivery may hold what a delivery on another thread waits for: the
/// delivery lock of a subscriber both want to reach, or its place in a chain of handlers. So a
/// cancellation that waits for deliveries on other threads (``InFlightGate/closeAndWait()``:
/// ``ObservationToken``'s `invalidate()`, a two-way binding's `cancel()`) does not wait when
/// the calling thread is itself inside one (``isDelivering``): two threads, each delivering and
/// cancelling, would otherwise wait for each other for good. One count for every module, so
/// that a cancellation in a Combine subscriber knows about the delivery lock it runs under, and
/// the reverse. The count is a field of the thread's record (``ThreadIdentity``).
@usableFromInline
package enum DeliveryScope {
  /// Enters a delivery on the calling thread; pass the result to ``leave(_:)``.
  @inlinable @inline(__always)
  package static func enter() -> UnsafeMutablePointer<Int> {
    #if DEBUG
      LockOrder.checkCallOut("a delivery (a handler, or a subscriber's receive)")
    #endif
    let depth = current
    depth.pointee += 1
    return depth
  }

  /// Leaves the delivery that ``enter()`` entered.
  @inlinable @inline(__always)
  package static func leave(_ depth: UnsafeMutablePointer<Int>) {
    depth.pointee -= 1
  }

  /// Runs `body` as a delivery.
  @inlinable
  package static func run<Result>(_ body: () throws -> Result) rethrows -> Result {
    let depth = enter()
    defer { leave(depth) }
    return try body()
  }

  /// Whether the calling thread is inside a delivery.
  package static var isDelivering: Bool { current.pointee > 0 }

  /// The calling thread's count: the first field of its record, so that its address is also
  /// the thread's ``ThreadIdentity``.
  @inlinable
  package static var current: UnsafeMutablePointer<Int> {
    kvolite_delivery_depth()
  }
}
