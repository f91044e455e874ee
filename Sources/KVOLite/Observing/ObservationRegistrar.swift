import Foundation

/// The per-object storage of observations, and the lock that guards the object's
/// ``Observed`` values.
///
/// Every ``KeyValueObservable`` object owns one, as a constant:
/// `let observationRegistrar = ObservationRegistrar()`. It keeps, for each declared key, the
/// list of observations to notify, sorted by registration order.
///
/// - Thread safety: all methods may be called from any thread. The lock is held only to copy
///   values and lists; observers are always called after it is released.
/// - Lifetime: the object owns its registrar, and nothing else keeps it alive (observations
///   refer to it weakly). When the object is released, the registrar ends every observation in
///   it: their tokens become inert, and chains that started at the object detach from the
///   objects further along.
public final class ObservationRegistrar: @unchecked Sendable {
  // @unchecked: the mutable state is only touched with `lock` held. For the same reason it is
  // `@exclusivity(unchecked)`: the lock already excludes overlapping access, and the dynamic
  // check would cost the set path more than the lock does.
  @usableFromInline let lock = Lock()
  /// The observations of each key, indexed by the key's position in its type's table.
  @exclusivity(unchecked) @usableFromInline var slots: [Slot] = []
  /// Bit `i` is set while key `i` (for `i < 64`) has triggers: the fast path's only test.
  @exclusivity(unchecked) @usableFromInline var observedMask: UInt64 = 0
  /// Manual `willChangeValue` calls waiting for their `didChangeValue`.
  @exclusivity(unchecked) var manualFrames: [ManualFrame] = []
  @exclusivity(unchecked) var isTornDown = false
  /// While a key's storage is being located (see `stamp`), the thread doing it; else 0.
  @exclusivity(unchecked) @usableFromInline var probingThread: UInt = 0
  /// What the probed getter reported: its storage's offset in the object, and its value type.
  @exclusivity(unchecked) var probeResult: (offset: Int, valueType: ObjectIdentifier)?
  /// Serializes `stamp`, which uses the single probe above.
  let stampLock = Lock()

  /// Creates an empty registrar.
  public init() {}

  deinit {
    // The object is gone and nobody holds this registrar strongly, but a cancellation that won
    // its trigger before this ran may still be removing it (see `Trigger.registrar`).
    let triggers = lock.withLock {
      isTornDown = true
      return slots.flatMap(\.triggers)
    }
    for trigger in triggers where trigger.endWithRegistrar() {
      if let (observation, level, _) = trigger.path, level == 0 {
        observation.invalidate()
      }
    }
  }

  /// Whether key `index` has observers. Call with the lock held.
  @inlinable
  func isObserved(_ index: Int) -> Bool {
    if index < 64 { return observedMask & (1 &<< UInt64(index)) != 0 }
    return index < slots.count && !slots[index].triggers.isEmpty
  }

  // MARK: - Registration

  /// Adds `trigger` to the list of key `index`, in registration order. Returns `false` if
  /// the registrar's object is being released.
  func add(_ trigger: Trigger, key index: Int) -> Bool {
    trigger.registrar = self
    trigger.keyIndex = Int32(index)
    return lock.withLock { insertLocked(trigger, key: index) }
  }

  /// Inserts `trigger` into the list of key `index` with the lock held; `false` if the
  /// registrar's object is being released.
  private func insertLocked(_ trigger: Trigger, key index: Int) -> Bool {
    guard !isTornDown else { return false }
    ensureSlot(index)
    slots[index].insert(trigger)
    if index < 64 { observedMask |= 1 &<< UInt64(index) }
    return true
  }

  /// Makes `slots[index]` exist. Call with the lock held.
  func ensureSlot(_ index: Int) {
    if slots.count <= index {
      slots.append(contentsOf: repeatElement(Slot(), count: index + 1 - slots.count))
    }
  }

  /// Registers `record` as a direct observation of `keyPath`, if `keyPath` is one declared
  /// key of `table`; returns `false` (and registers nothing) if it is not.
  @usableFromInline
  func addDirect(_ record: Trigger, for keyPath: AnyKeyPath, of object: AnyObject, in table: KeyTable)
    throws(KeyValueError) -> Bool
  {
    guard let index = table.declaredIndex(of: keyPath), table.entries[index].role != .derived
    else { return false }
    record.registrar = self
    record.keyIndex = Int32(index)
    // Already stamped (every registration after the first): check and insert under one lock.
    let inserted = lock.withLock {
      index < slots.count && slots[index].isStamped && insertLocked(record, key: index)
    }
    if inserted { return true }
    try stamp(object, key: index, entry: table.entries[index], typeName: table.typeName)
    return add(record, key: index)
  }

  /// Removes `trigger` from its list. Removing what is not there does nothing.
  func remove(_ trigger: Trigger) {
    let index = Int(trigger.keyIndex)
    let removed: Trigger? = lock.withLock {
      guard index < slots.count else { return nil }
      let removed = slots[index].remove(trigger)
      if index < 64, slots[index].triggers.isEmpty { observedMask &= ~(1 &<< UInt64(index)) }
      return removed
    }
    // Released here, after unlocking: the trigger may hold the last reference to a handler.
    _ = removed
  }
}

/// The observations of one key.
@usableFromInline
struct Slot {
  /// Sorted by `order`.
  @usableFromInline var triggers: [Trigger] = []
  /// How many triggers need the general path: untyped links, and anything with `.prior`.
  @usableFromInline var slowCount = 0
  /// How many typed triggers want the old value.
  @usableFromInline var oldCount = 0
  /// Whether the key's storage has been located and stamped with its index.
  var isStamped = false
  /// The offset of the key's ``Observed`` storage in the object, or -1 (none, or not known).
  @usableFromInline var storageOffset = -1
  /// The key's `notifiesAutomatically`, copied here when stamped.
  @usableFromInline var notifiesAutomatically = true

  @usableFromInline init() {}

  mutating func insert(_ trigger: Trigger) {
    var position = triggers.endIndex
    while position > 0, triggers[position - 1].order > trigger.order { position -= 1 }
    triggers.insert(trigger, at: position)
    count(trigger, +1)
  }

  mutating func remove(_ trigger: Trigger) -> Trigger? {
    // Search from the end: the most recent registrations are the likeliest to go first.
    guard let position = triggers.lastIndex(where: { $0 === trigger }) else { return nil }
    count(trigger, -1)
    return triggers.remove(at: position)
  }

  private mutating func count(_ trigger: Trigger, _ delta: Int) {
    if trigger.isTyped {
      if trigger.wantsPrior { slowCount += delta }
      if trigger.wantsOld { oldCount += delta }
    } else {
      slowCount += delta
    }
  }
}

extension ObservationRegistrar {
  /// How many triggers (direct observations and chain links) the registrar holds, over all
  /// keys. For tests and diagnostics: zero means the object is observed by nothing.
  public var triggerCount: Int {
    lock.withLock { slots.reduce(0) { $0 + $1.triggers.count } }
  }
}
