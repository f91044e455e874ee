#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The threads inside a call that Combine makes while holding its (non-recursive) lock: a call
/// back into the operator on one of them is where Combine traps, since its lock is taken
/// again. KVOLite calls out without holding a lock, so it marks those calls instead, and traps
/// in the same cases, with a message that says why.
///
/// Not thread-safe: the owner guards it with its lock (enter, leave and check with the lock
/// held, and make the call itself after unlocking).
struct CallingThreads {
  private var threads: [pthread_t] = []

  /// Marks the current thread as inside the call.
  mutating func enter() { threads.append(pthread_self()) }

  /// Marks the current thread as out of the call.
  mutating func leave() {
    if let index = threads.firstIndex(where: { pthread_equal($0, pthread_self()) != 0 }) {
      threads.remove(at: index)
    }
  }

  /// Whether the current thread is inside the call.
  var containsCurrent: Bool { threads.contains { pthread_equal($0, pthread_self()) != 0 } }
}
