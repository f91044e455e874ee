import KVOLiteLocking

/// Counts the calling thread as delivering while KVOLite calls into handlers, so that
/// ``ObservationToken/invalidate()`` called from inside a handler knows not to wait for other
/// threads' deliveries (see ``waitForDeliveries(holding:)``).
@usableFromInline
enum DeliveryScope {
  /// Enters a delivery; pass the result to ``leave(_:)``.
  @usableFromInline
  static func enter() -> UnsafeMutableRawPointer {
    let state = ThreadLocalState.current
    state.pointee.deliveryDepth += 1
    return UnsafeMutableRawPointer(state)
  }

  @usableFromInline
  static func leave(_ state: UnsafeMutableRawPointer) {
    state.assumingMemoryBound(to: ThreadLocalState.self).pointee.deliveryDepth -= 1
  }

  /// Runs `body` as a delivery.
  static func run(_ body: () -> Void) {
    let state = enter()
    defer { leave(state) }
    body()
  }
}
