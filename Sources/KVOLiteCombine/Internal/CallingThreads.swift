import KVOLiteLocking

/// The threads inside a call that Combine makes while holding its (non-recursive) lock: a call
/// back into the operator on one of them is where Combine traps, since its lock is taken
/// again. KVOLite calls out without holding a lock, so it marks those calls instead, and traps
/// in the same cases, with a message that says why.
///
/// Not thread-safe: the owner guards it with its lock (enter, leave and check with the lock
/// held, and make the call itself after unlocking). Threads are told apart by their
/// ``ThreadIdentity``, the one form of per-thread state.
struct CallingThreads {
  private var threads: [ThreadIdentity] = []

  /// Marks the current thread as inside the call.
  mutating func enter() { threads.append(.current) }

  /// Marks the current thread as out of the call.
  mutating func leave() {
    let current = ThreadIdentity.current
    if let index = threads.firstIndex(of: current) { threads.remove(at: index) }
  }

  /// Whether the current thread is inside the call.
  var containsCurrent: Bool { threads.contains(.current) }
}
