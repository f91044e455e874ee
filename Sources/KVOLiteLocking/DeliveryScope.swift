#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts, per thread, the deliveries in progress: KVOLite calling an observation's handler,
/// or a subscriber with a delivery lock (``RecursiveLock``) held.
///
/// A thread inside a delivery may hold what a delivery on another thread waits for: the
/// delivery lock of a subscriber both want to reach, or its place in a chain of handlers. So a
/// cancellation that waits for deliveries on other threads (``ObservationToken``'s
/// `invalidate()`, a two-way binding's `cancel()`) does not wait when the calling thread is
/// itself inside one (``isDelivering``): two threads, each delivering and cancelling, would
/// otherwise wait for each other for good. One count for every module, so that a cancellation
/// in a Combine subscriber knows about the delivery lock it runs under, and the reverse.
@usableFromInline
package enum DeliveryScope {
  /// Enters a delivery on the calling thread; pass the result to ``leave(_:)``.
  @usableFromInline
  package static func enter() -> UnsafeMutablePointer<Int> {
    let depth = current
    depth.pointee += 1
    return depth
  }

  /// Leaves the delivery that ``enter()`` entered.
  @usableFromInline
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
  package static var isDelivering: Bool {
    guard let existing = pthread_getspecific(key) else { return false }
    return existing.assumingMemoryBound(to: Int.self).pointee > 0
  }

  /// The calling thread's count: a block allocated on the thread's first delivery and freed
  /// when the thread exits, reached through a POSIX key (Swift has no thread-local variables).
  private static var current: UnsafeMutablePointer<Int> {
    if let existing = pthread_getspecific(key) {
      return existing.assumingMemoryBound(to: Int.self)
    }
    let depth = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    depth.initialize(to: 0)
    pthread_setspecific(key, depth)
    return depth
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { depth in
      depth?.deallocate()
    }
    precondition(status == 0, "KVOLite: cannot create its thread-local key (error \(status))")
    return key
  }()
}
