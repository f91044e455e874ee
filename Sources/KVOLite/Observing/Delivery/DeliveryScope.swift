/// Counts the calling thread as delivering while KVOLite calls into handlers, so that
/// ``ObservationToken/invalidate()`` called from inside a handler knows not to wait for other
/// threads' deliveries (see ``waitForDeliveries(holding:)``).
@usableFromInline
enum DeliveryScope {
  @usableFromInline
  static func enter() {
    ThreadLocalState.current.pointee.deliveryDepth += 1
  }

  @usableFromInline
  static func leave() {
    ThreadLocalState.current.pointee.deliveryDepth -= 1
  }

  /// Runs `body` as a delivery.
  static func run(_ body: () -> Void) {
    enter()
    defer { leave() }
    body()
  }
}
