import Foundation
import KVOLiteLocking

/// The lock that guards the ``Observed`` properties of an object: one of a fixed table of
/// locks (see ``Lock`` and `PropertyLockTable`), chosen by the object's address.
///
/// An object's properties are reached through key-path projections, and a projection that
/// yields a property's address is an exclusive (modify) access in Swift's model: two threads
/// must never make it at once. So the lock has to be found *before* the property is touched,
/// from the object's address alone; a lock per object would need a field of its own that
/// cannot be reached without such an access. A table of 1,024 locks, each on its own cache
/// line, hashed by address, gives every object a lock that costs nothing to find. Objects that
/// share a lock only wait for each other's few instructions: no critical section calls out,
/// and none takes a second property lock (two objects may share one), so handlers, getters
/// and releases run after unlocking.
@usableFromInline
package struct PropertyLock {
  @usableFromInline let mutex: UnsafeMutablePointer<LockPrimitive>

  /// The lock of the object at `address`.
  @inlinable @inline(__always)
  init(for address: UnsafeRawPointer) {
    mutex = (PropertyLockTable.base + PropertyLock.index(for: address) &* 64)
      .assumingMemoryBound(to: LockPrimitive.self)
  }

  /// The index in the table of the lock of the object at `address`.
  @inlinable @inline(__always)
  static func index(for address: UnsafeRawPointer) -> Int {
    // Objects are 16-byte aligned; a multiplicative hash spreads neighbours over the table.
    let hash = (UInt(bitPattern: address) >> 4) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: hash >> (UInt.bitWidth - 10))
  }

  /// The index in the table of `object`'s property lock (for tests: objects that share one
  /// wait for each other).
  package static func index(of object: AnyObject) -> Int {
    index(for: Unmanaged.passUnretained(object).toOpaque())
  }

  @inlinable @inline(__always)
  func lock() { mutex.acquire(rank: .property, name: "an object's property lock") }

  @inlinable @inline(__always)
  func unlock() { mutex.releaseChecked() }
}

/// The state field at the start of every ``Observed`` storage, guarded by the object's
/// ``PropertyLock``: whether a set must take the slow path, which key of its type the property
/// is, and how many of its sets a reading that finds inputs may have missed.
///
/// | bits | meaning |
/// |---|---|
/// | 0 | observed: the key has observers on this object |
/// | 1 | manual: the property is declared `@Observed(notifiesAutomatically: false)` |
/// | 2 | accessors pending: no get or set of this object's property has handed its key path to the accessor registry yet (``AccessorRegistry``) |
/// | 3 | tracked: a reading that finds inputs read the property (``StorageProbe``); the next set moves the change counter |
/// | 4...15 | the change counter: moved by a set that finds the property tracked |
/// | 16...31 | the key's index in its type's table, plus one (0 until first observed) |
///
/// A set takes the fast path (a move of the value, nothing else) while none of bits 0, 2 and
/// 3 is set: one mask, as before any of them. Registration sets the observed bit (the observer
/// is added first); the slow path of a set clears it when it finds no observers left.
///
/// The counter is how a links observation knows that a set raced the placing of a link on an
/// input it found by reading (see ``LinksObservation``): the reading records the counter under
/// the property lock and marks the property tracked; the placing compares the counter under
/// the same lock. The counter moves at most once per reading (a set clears the mark), so 4,096
/// readings would have to race one placing for it to come back where it was.
@usableFromInline
enum StorageState {
  @usableFromInline static let observed: UInt32 = 1 << 0
  /// The property notifies only by hand (`@Observed(notifiesAutomatically: false)`):
  /// registering an observer never marks it observed, so its sets notify nobody.
  @usableFromInline static let manual: UInt32 = 1 << 1
  /// No get or set of the property on this object has handed its key path over yet (see
  /// ``AccessorRegistry``): set when the storage is made, cleared by the first.
  @usableFromInline static let accessorsPending: UInt32 = 1 << 2
  /// A reading that finds inputs read the property since its last set.
  @usableFromInline static let tracked: UInt32 = 1 << 3
  /// The property is being mutated in place (``Observed``'s `_modify`): its value is out of
  /// the storage, with the mutating code, until the mutation ends. Every other access of the
  /// storage waits for it (``waitWhileModified(_:_:)``).
  @usableFromInline static let modifying: UInt32 = 1 << 16
  /// What makes a set take the slow path.
  @usableFromInline static let slowSet: UInt32 = observed | accessorsPending | tracked | modifying
  @usableFromInline static let counterShift: UInt32 = 4
  @usableFromInline static let counterMask: UInt32 = 0xFFF << counterShift
  @usableFromInline static let indexShift: UInt32 = 17
  /// The most keys a class may have: their indexes are kept in the 15 bits above `indexShift`.
  static let maximumKeys = (1 << (32 - Int(indexShift))) - 2
  /// The bits that say something of the property itself, kept when it is marked observed.
  static let propertyFlags = manual | accessorsPending | tracked | counterMask

  /// The state of a new storage.
  @inlinable
  static func initial(notifiesAutomatically: Bool) -> UInt32 {
    notifiesAutomatically ? accessorsPending : accessorsPending | manual
  }

  /// The key index recorded in `state`, or -1.
  @inlinable
  static func keyIndex(of state: UInt32) -> Int { Int(state >> indexShift) - 1 }

  /// The change counter in `state`.
  @inlinable
  static func counter(of state: UInt32) -> UInt32 { state & counterMask }

  /// `state` after a set: a tracked property's counter moves (and the mark is cleared).
  @inlinable
  static func afterSet(_ state: UInt32) -> UInt32 {
    guard state & tracked != 0 else { return state }
    return (state & ~(tracked | counterMask))
      | ((state &+ (1 << counterShift)) & counterMask)
  }

  /// The state of a property observed as key `index`.
  static func observed(key index: Int) -> UInt32 {
    guard index < maximumKeys else {
      fatalError(
        "KVOLite: cannot observe key \(index + 1) of a class: a class has at most \(maximumKeys) keys"
      )
    }
    return observed | UInt32(index + 1) << indexShift
  }

  /// Waits until no in-place mutation of the storage whose state word is at `state` runs:
  /// entered and left with `lock` (the object's) held, which it releases while it waits,
  /// yielding the processor. A mutation is the caller's own code (an `append`, a
  /// `removeAll(where:)`), so it is short but may run a closure or a `deinit`: an access from
  /// inside it, on its own thread, would wait for itself, and stops the program instead, as
  /// Swift's exclusivity check stops a simultaneous access to a stored property.
  /// Inlined, the check only: the wait is out of line.
  @inlinable @inline(__always)
  static func waitWhileModified(_ state: UnsafeMutableRawPointer, _ lock: PropertyLock) {
    if _slowPath(state.assumingMemoryBound(to: UInt32.self).pointee & modifying != 0) {
      waitForMutation(state, lock)
    }
  }

  /// The wait of ``waitWhileModified(_:_:)``.
  @usableFromInline @inline(never)
  static func waitForMutation(_ state: UnsafeMutableRawPointer, _ lock: PropertyLock) {
    let word = state.assumingMemoryBound(to: UInt32.self)
    while word.pointee & modifying != 0 {
      lock.unlock()
      if ThreadIdentity.isMutatingInPlace(state) {
        fatalError(
          "KVOLite: an @Observed property was accessed from inside an in-place mutation of it"
            + " (an append, a removeAll(where:) closure, an element's deinit) on the same"
            + " thread; Swift forbids this for a stored property too (simultaneous access):"
            + " copy the value out first, mutate the copy, and set it back")
      }
      sched_yield()
      lock.lock()
    }
  }

  /// Marks the storage at `storage` (offset `offset` in `object`) observed as key `index`,
  /// under the object's lock, unless it notifies only by hand. With `counter`, the change
  /// counter a reading recorded: returns whether a set moved it since (the reading may have
  /// missed that set). The caller holds `object`.
  ///
  /// A registration made while the property is mutated in place comes after the mutation (the
  /// mutation's store would go unheard otherwise): by default it waits for the mutation to end.
  /// A caller that holds a lock (a links observation placing its links) must not wait — the
  /// mutation's code may need that lock (an element's `deinit` ending the observation) — so
  /// with `waitsForMutation: false` the storage is marked without waiting, and the result says
  /// the reading must be made again, as for a set that raced it (its getter waits then, with
  /// no lock held).
  @discardableResult
  static func markObserved(
    _ object: AnyObject, offset: Int, key index: Int, notifies: Bool, counter: UInt32? = nil,
    waitsForMutation: Bool = true
  ) -> Bool {
    guard notifies || counter != nil else { return false }
    let base = Unmanaged.passUnretained(object).toOpaque()
    let lock = PropertyLock(for: base)
    lock.lock()
    if waitsForMutation { StorageState.waitWhileModified(base + offset, lock) }
    let state = (base + offset).assumingMemoryBound(to: UInt32.self)
    let mutating = state.pointee & modifying != 0
    if notifies, state.pointee & manual == 0 {
      state.pointee = observed(key: index) | state.pointee & (propertyFlags | modifying)
    }
    let moved = mutating || (counter.map { $0 != self.counter(of: state.pointee) } ?? false)
    lock.unlock()
    return moved
  }

  /// Marks the storage `state` tracked by a reading that finds inputs (with its lock held);
  /// returns its change counter.
  static func track(_ state: UnsafeMutablePointer<UInt32>) -> UInt32 {
    state.pointee |= tracked
    return counter(of: state.pointee)
  }
}
