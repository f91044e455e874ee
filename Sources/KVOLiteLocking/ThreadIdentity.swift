import KVOLiteLockPrimitive

/// The calling thread, as every KVOLite module knows it: one thread-local record (a C
/// `_Thread_local`, initial-exec: an offset from the thread pointer, no call to find it), whose
/// address is the thread's identity while it lives.
///
/// The one form of per-thread state in KVOLite. The record holds how deep the thread is in
/// deliveries (``DeliveryScope``) and the storage probe it runs (KVOLite's `StorageProbe`); its
/// address tells threads apart wherever state must know which thread does what: the owner of a
/// ``RecursiveLock``, the thread taking an element observation's changes, the thread crossing a
/// two-way binding's changes, the thread whose `willChangeValue` a `didChangeValue` finishes.
/// (It replaced a POSIX key for the probe, `pthread_self()` for the identities, and a
/// thread-local word for the depth.)
///
/// Nothing in the record needs freeing when the thread ends: the probe is set only while a probe
/// runs, and the depth is a number. A thread that starts after another ended may get the same
/// address, as it may get the same `pthread_t`: identities are unique among live threads only.
@usableFromInline
package struct ThreadIdentity: Hashable, Sendable {
  /// The record's address.
  @usableFromInline package let address: UInt

  /// The identity whose record is at `address` (for tests of the state machines, which stand
  /// in for threads with made-up identities).
  @inlinable package init(address: UInt) { self.address = address }

  /// The calling thread.
  @inlinable package static var current: ThreadIdentity {
    ThreadIdentity(address: UInt(bitPattern: kvolite_thread_record()))
  }

  /// The calling thread's record.
  @inlinable package static var record: UnsafeMutablePointer<kvolite_thread_record_t> {
    kvolite_thread_record()
  }

  /// The storage probe the calling thread runs: an address that only its owner (KVOLite's
  /// `StorageProbe`) interprets, set and restored around each probe.
  package static var probe: UnsafeMutableRawPointer? {
    get { record.pointee.probe }
    set { record.pointee.probe = newValue }
  }

  /// Notes that the calling thread mutates the storage at `storage` in place (KVOLite's
  /// `Observed`), until ``endMutatingInPlace()``; `false`, noting nothing, if the thread is
  /// already inside as many in-place mutations as its record lists (the caller copies then).
  @inlinable package static func beginMutatingInPlace(_ storage: UnsafeRawPointer) -> Bool {
    kvolite_in_place_begin(storage) != 0
  }

  /// Ends the calling thread's innermost in-place mutation.
  @inlinable package static func endMutatingInPlace() {
    kvolite_in_place_end()
  }

  /// Whether the calling thread is inside an in-place mutation of any storage: an
  /// ``InFlightGate`` does not wait there (the mutation's own code, an element's `deinit`,
  /// may end an observation whose handler, on another thread, waits for the mutation).
  @inlinable package static var isMutatingInPlace: Bool { kvolite_in_place_any() != 0 }

  /// Whether the calling thread runs a Swift concurrency task (whose code may be suspended at an
  /// `await` and resume on another thread).
  @inlinable package static var isRunningTask: Bool { kvolite_in_task() != 0 }

  /// Whether the calling thread is mutating the storage at `storage` in place.
  package static func isMutatingInPlace(_ storage: UnsafeRawPointer) -> Bool {
    kvolite_in_place_contains(storage) != 0
  }
}
