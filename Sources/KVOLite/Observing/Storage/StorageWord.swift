import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state word at the start of every ``Observed`` storage: the property's lock, whether a
/// set must notify, and which key of its type the property is.
///
/// | bits | meaning |
/// |---|---|
/// | 0 | locked: a thread is reading or writing the value |
/// | 1 | observed: the key has observers on this object, so a set takes the slow path |
/// | 8...31 | the key's index in its type's table, plus one (0 until first observed) |
///
/// Only a lock holder changes the value. Registration sets the observed bit and the index with
/// a compare-and-swap from an *unlocked* state, so a lock holder's unlock (a plain store of the
/// state it locked) never loses them; the slow path clears the observed bit when it finds no
/// observers left.
@usableFromInline
struct StorageWord {
  @usableFromInline static let locked: UInt32 = 1 << 0
  @usableFromInline static let observed: UInt32 = 1 << 1
  @usableFromInline static let indexShift: UInt32 = 8

  @usableFromInline let atomic: UnsafeMutablePointer<Atomic<UInt32>>

  /// The word of the storage at `storage` (the storage's first field).
  @inlinable
  init(_ storage: UnsafeMutableRawPointer) {
    atomic = storage.assumingMemoryBound(to: Atomic<UInt32>.self)
  }

  /// The key index recorded in `state`, or -1.
  @inlinable
  static func keyIndex(of state: UInt32) -> Int { Int(state >> indexShift) - 1 }

  /// The fast path's lock: takes the lock if it is free and nobody observes the property;
  /// returns the state it locked, or `nil` (the slow path then decides).
  @inlinable @inline(__always)
  func tryLockUnobserved() -> UInt32? {
    let state = atomic.pointee.load(ordering: .relaxed)
    guard state & (StorageWord.locked | StorageWord.observed) == 0,
      atomic.pointee.compareExchange(
        expected: state, desired: state | StorageWord.locked, ordering: .acquiring
      ).exchanged
    else { return nil }
    return state
  }

  /// Takes the lock, waiting for it if needed; returns the state it locked (lock bit clear).
  @inlinable @inline(__always)
  func lock() -> UInt32 {
    let state = atomic.pointee.load(ordering: .relaxed)
    if state & StorageWord.locked == 0,
      atomic.pointee.compareExchange(
        expected: state, desired: state | StorageWord.locked, ordering: .acquiring
      ).exchanged
    {
      return state
    }
    return lockContended()
  }

  @usableFromInline @inline(never)
  func lockContended() -> UInt32 {
    var spins = 0
    while true {
      let state = atomic.pointee.load(ordering: .relaxed)
      if state & StorageWord.locked == 0,
        atomic.pointee.compareExchange(
          expected: state, desired: state | StorageWord.locked, ordering: .acquiring
        ).exchanged
      {
        return state
      }
      spins += 1
      if spins > 64 { sched_yield() }
    }
  }

  /// Releases the lock, leaving `state` (the locked state, possibly with the observed bit
  /// cleared by its holder).
  @inlinable @inline(__always)
  func unlock(_ state: UInt32) {
    atomic.pointee.store(state, ordering: .releasing)
  }

  /// Marks the property observed as key `index`: waits until the lock is free, then sets the
  /// observed bit and the index in one step.
  func markObserved(key index: Int) {
    let bits = StorageWord.observed | (UInt32(index + 1) << StorageWord.indexShift)
    var spins = 0
    while true {
      let state = atomic.pointee.load(ordering: .relaxed)
      if state & StorageWord.locked == 0 {
        let desired = (state & ~(UInt32.max << StorageWord.indexShift)) | bits
        if atomic.pointee.compareExchange(expected: state, desired: desired, ordering: .releasing)
          .exchanged
        {
          return
        }
      }
      spins += 1
      if spins > 64 { sched_yield() }
    }
  }
}
