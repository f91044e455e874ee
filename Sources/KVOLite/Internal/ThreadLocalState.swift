import KVOLiteLocking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What KVOLite keeps per thread: the storage probe it is running, if any. (How deep the thread
/// is in deliveries is KVOLiteLocking's ``DeliveryScope``, shared with the Combine modules.)
///
/// Swift has no thread-local variables, so the state lives in a block allocated on the
/// thread's first use and freed by the thread's exit, reached through a POSIX key.
struct ThreadLocalState {
  /// The storage probe this thread is running (see ``StorageProbe``).
  var probe: StorageProbe.Request?

  /// The calling thread's state.
  static var current: UnsafeMutablePointer<ThreadLocalState> {
    if let existing = pthread_getspecific(key) {
      return existing.assumingMemoryBound(to: ThreadLocalState.self)
    }
    let state = UnsafeMutablePointer<ThreadLocalState>.allocate(capacity: 1)
    state.initialize(to: ThreadLocalState())
    pthread_setspecific(key, state)
    return state
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { state in
      guard let state else { return }
      let typed = state.assumingMemoryBound(to: ThreadLocalState.self)
      typed.deinitialize(count: 1)
      typed.deallocate()
    }
    require(status == 0, "KVOLite: cannot create its thread-local key (error \(status))")
    return key
  }()
}
