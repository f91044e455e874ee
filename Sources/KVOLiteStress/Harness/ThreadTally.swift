#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts events per thread: each thread sees only its own counts. For checks that a
/// notification arrived on the thread that caused it, at the moment it caused it (a manual
/// will/did pair delivers on the thread that calls it, before the call returns).
///
/// The counts live in a block per thread, reached through a POSIX key and freed when the
/// thread exits.
final class ThreadTally: @unchecked Sendable {
  // @unchecked: the key is set once; each thread touches only its own block.
  private var key = pthread_key_t()
  private let kinds: Int

  /// A tally of `kinds` kinds of event, numbered from 0.
  init(kinds: Int) {
    self.kinds = kinds
    let status = pthread_key_create(&key) { $0?.deallocate() }
    if status != 0 { fatalError("kvolite-stress: pthread_key_create failed (\(status))") }
  }

  deinit { pthread_key_delete(key) }

  private var counts: UnsafeMutablePointer<Int> {
    if let existing = pthread_getspecific(key) {
      return existing.assumingMemoryBound(to: Int.self)
    }
    let counts = UnsafeMutablePointer<Int>.allocate(capacity: kinds)
    counts.initialize(repeating: 0, count: kinds)
    pthread_setspecific(key, counts)
    return counts
  }

  /// Counts one event of `kind` on the calling thread.
  func increment(_ kind: Int) { counts[kind] += 1 }

  /// The calling thread's count of `kind`.
  func count(_ kind: Int) -> Int { counts[kind] }
}

/// An identifier of the calling thread, unique among live threads.
func threadID() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}
