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
struct PropertyLock {
  @usableFromInline let mutex: UnsafeMutablePointer<LockPrimitive>

  /// The lock of the object at `address`.
  @inlinable @inline(__always)
  init(for address: UnsafeRawPointer) {
    // Objects are 16-byte aligned; a multiplicative hash spreads neighbours over the table.
    let hash = (UInt(bitPattern: address) >> 4) &* 0x9E37_79B9_7F4A_7C15
    let index = Int(truncatingIfNeeded: hash >> (UInt.bitWidth - 10))
    mutex = (PropertyLockTable.base + index &* 64).assumingMemoryBound(to: LockPrimitive.self)
  }

  @inlinable @inline(__always)
  func lock() {
    #if DEBUG
      LockOrder.willAcquire(mutex, rank: .property, name: PropertyLock.name)
      mutex.acquire()
      LockOrder.didAcquire(mutex, rank: .property, name: PropertyLock.name)
    #else
      mutex.acquire()
    #endif
  }

  @inlinable @inline(__always)
  func unlock() {
    #if DEBUG
      LockOrder.willRelease(mutex)
    #endif
    mutex.release()
  }

  /// The name of every property lock in the lock order's messages.
  @usableFromInline static let name = LockName("an object's property lock")
}

/// The state field at the start of every ``Observed`` storage, guarded by the object's
/// ``PropertyLock``: whether a set must notify, and which key of its type the property is.
///
/// | bits | meaning |
/// |---|---|
/// | 0 | observed: the key has observers on this object, so a set takes the slow path |
/// | 1 | manual: the property is declared `@Observed(notifiesAutomatically: false)` |
/// | 2 | the getter has handed the property's key path over (``AccessorKeyPaths``) |
/// | 8...31 | the key's index in its type's table, plus one (0 until first observed) |
///
/// Registration sets it (the observer is added first); the slow path of a set clears the
/// observed bit when it finds no observers left.
@usableFromInline
enum StorageState {
  @usableFromInline static let observed: UInt32 = 1 << 0
  /// The property notifies only by hand (`@Observed(notifiesAutomatically: false)`):
  /// registering an observer never marks it observed, so its sets notify nobody.
  @usableFromInline static let manual: UInt32 = 1 << 1
  /// The property's getter has handed its key path over (see ``AccessorKeyPaths``): once per
  /// object, so that key-value coding can go through the property's accessors.
  @usableFromInline static let accessorsHandedOver: UInt32 = 1 << 2
  /// The bits that say something of the property itself, kept when it is marked observed.
  static let propertyFlags = manual | accessorsHandedOver
  @usableFromInline static let indexShift: UInt32 = 8

  /// The key index recorded in `state`, or -1.
  @inlinable
  static func keyIndex(of state: UInt32) -> Int { Int(state >> indexShift) - 1 }

  /// The state of a property observed as key `index`.
  static func observed(key index: Int) -> UInt32 {
    observed | UInt32(index + 1) << indexShift
  }

  /// Marks the storage at `storage` (offset `offset` in `object`) observed as key `index`,
  /// under the object's lock, unless it notifies only by hand. The caller holds `object`.
  static func markObserved(_ object: AnyObject, offset: Int, key index: Int) {
    let base = Unmanaged.passUnretained(object).toOpaque()
    let lock = PropertyLock(for: base)
    lock.lock()
    let state = (base + offset).assumingMemoryBound(to: UInt32.self)
    if state.pointee & manual == 0 {
      state.pointee = observed(key: index) | state.pointee & propertyFlags
    }
    lock.unlock()
  }
}
