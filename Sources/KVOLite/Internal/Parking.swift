#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where threads wait for a condition that other threads make true, and wake them: one mutex
/// and one condition variable for the whole process, used only by ``ObservationToken``s that
/// wait for deliveries in flight on other threads (rare, and short).
enum Parking {
  nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    return mutex
  }()

  nonisolated(unsafe) private static let condition: UnsafeMutablePointer<pthread_cond_t> = {
    let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    pthread_cond_init(condition, nil)
    return condition
  }()

  /// Blocks until `isDone` returns `true`. `isDone` is evaluated with the parking mutex held,
  /// so it must only read atomics; whoever makes it true calls ``wakeAll()`` afterwards.
  static func wait(until isDone: () -> Bool) {
    pthread_mutex_lock(mutex)
    while !isDone() { pthread_cond_wait(condition, mutex) }
    pthread_mutex_unlock(mutex)
  }

  /// Wakes every waiting thread, which then re-evaluates its condition.
  static func wakeAll() {
    pthread_mutex_lock(mutex)
    pthread_cond_broadcast(condition)
    pthread_mutex_unlock(mutex)
  }
}
