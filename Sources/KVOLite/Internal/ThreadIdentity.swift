#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An identifier of the calling thread, unique among live threads.
///
/// Manual `willChangeValue`/`didChangeValue` pairs are matched per thread, as Foundation does,
/// so that two threads notifying the same key do not finish each other's changes.
func currentThreadID() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}
