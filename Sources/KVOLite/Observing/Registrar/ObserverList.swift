import KVOLiteLocking

/// The observers of one key of one object, in registration order.
///
/// Deliveries iterate a list without any lock. They enter its gate (an ``InFlightGate``) while
/// they do (entering under the object's property lock, leaving after their last use of the
/// list), and they hold a strong reference to it. The registrar changes a list only with the
/// property lock held (see ``RegistrarStateMachine``):
///
/// - in place, when no delivery iterates it (nobody is inside its gate, and no delivery can
///   enter while the property lock is held): an observer registered after every other one is
///   appended, a removed one leaves an empty slot behind (found by binary search on the
///   registration order). Both cost O(1) (amortized: the slots are compacted when half are
///   empty, and the buffer doubles when it is full);
/// - otherwise, by replacing it with a changed copy (compacted), so that deliveries in flight
///   go on iterating the list they began with, unchanged. The replaced list's gate is closed:
///   an invalidation waits for the deliveries still inside it.
///
/// One allocation: the entries are stored after the header (a `ManagedBuffer`).
@usableFromInline
final class ObserverList: ManagedBuffer<ObserverList.Header, ObserverList.Entry> {
  // Shared between threads under the rules above; the gate is only accessed atomically.

  /// 24 bytes, so that a list of one observer takes 56 bytes, one 64-byte heap block
  /// (Performance article, row M1).
  @usableFromInline
  struct Header {
    /// The gate's word (an ``InFlightGate``); accessed only through ``ObserverList/gate``.
    @usableFromInline var gateStorage: UInt = 0
    /// Slots in use, with observers or emptied by a removal.
    @usableFromInline var countStorage: UInt32 = 0
    /// Slots with an observer.
    @usableFromInline var liveStorage: UInt32 = 0
    /// Slots the list was made with, the most it holds. The buffer may have more room (the
    /// allocator rounds its size up, differently from one allocation to the next); it is left
    /// unused, so that when a list is full does not depend on the allocator.
    @usableFromInline var slots: UInt32
    /// The key whose observers these are (``KeyTable`` allows at most `UInt16.max` keys).
    @usableFromInline let keyIndexStorage: UInt16
    /// ``needsWillPhase``, ``wantsOld`` and ``takesChangesInFlight``, one bit each (below).
    @usableFromInline var flags: UInt8 = 0
    /// Which option combinations typed observers use: bit
    /// `(wantsOld ? 2 : 0) + (wantsNew ? 1 : 0)` is set for each, so that a delivery builds only
    /// the change records someone needs (may keep bits, as the flags below).
    @usableFromInline var recordKinds: UInt8 = 0

    init(keyIndex: Int, slots: Int) {
      keyIndexStorage = UInt16(truncatingIfNeeded: keyIndex)  // The table's limit.
      self.slots = UInt32(slots)
    }

    /// The bits of ``flags``: a set needs a will-phase (some observer wants a prior
    /// notification, or is a link of a path observation, which reads its old value through the
    /// chain at will-time); some typed observer wants the old value; some observer takes
    /// changes in flight (see ``RegistrarStateMachine/lateList(key:after:)``). A bit may stay set after
    /// the observer that needed it is removed (until the list is next copied).
    @usableFromInline static let needsWillPhase: UInt8 = 1
    @usableFromInline static let wantsOld: UInt8 = 2
    @usableFromInline static let takesChangesInFlight: UInt8 = 4
  }

  // The header's fields are read one by one, through the header's address (`pointee.field`),
  // never as a whole: a copy of the header would read the gate's word, which deliveries write
  // atomically while the registrar reads a busy list's counts.

  /// One slot: an observer, retained by the list, or `nil` once it was removed in place. The
  /// registration order stays, so that the slots remain sorted for binary search. (Unmanaged,
  /// so that a delivery visits the observers without retaining each.)
  @usableFromInline
  struct Entry {
    @usableFromInline let order: UInt64
    @usableFromInline var trigger: Unmanaged<Trigger>?
  }

  /// A list of key `keyIndex` holding `triggers` (in registration order), with room for
  /// `capacity` slots.
  static func make<Triggers: Collection<Trigger>>(
    keyIndex: Int, _ triggers: Triggers, capacity: Int
  ) -> ObserverList {
    let slots = max(capacity, triggers.count, 1)
    let list = create(minimumCapacity: slots) { _ in Header(keyIndex: keyIndex, slots: slots) }
    let made = unsafeDowncast(list, to: ObserverList.self)
    made.withUnsafeMutablePointers { header, entries in
      for trigger in triggers {
        (entries + Int(header.pointee.countStorage)).initialize(
          to: Entry(order: trigger.order, trigger: .passRetained(trigger)))
        header.pointee.countStorage += 1
        ObserverList.noteAdded(trigger, to: header)
      }
    }
    return made
  }

  deinit {
    withUnsafeMutablePointers { header, entries in
      let count = Int(header.pointee.countStorage)
      for index in 0..<count { entries[index].trigger?.release() }
      entries.deinitialize(count: count)
    }
  }

  // The header is read through its pointer: reading `header` would check exclusivity at run
  // time, and deliveries read it only while no one writes it (see above).
  @inlinable var count: Int { withUnsafeMutablePointerToHeader { Int($0.pointee.countStorage) } }
  @inlinable var live: Int { withUnsafeMutablePointerToHeader { Int($0.pointee.liveStorage) } }
  @inlinable var keyIndex: Int {
    withUnsafeMutablePointerToHeader { Int($0.pointee.keyIndexStorage) }
  }
  @inlinable var needsWillPhase: Bool {
    withUnsafeMutablePointerToHeader { $0.pointee.flags & Header.needsWillPhase != 0 }
  }
  @inlinable var wantsOld: Bool {
    withUnsafeMutablePointerToHeader { $0.pointee.flags & Header.wantsOld != 0 }
  }
  @inlinable var recordKinds: UInt8 { withUnsafeMutablePointerToHeader { $0.pointee.recordKinds } }

  /// The gate deliveries enter while they iterate the list, in the header.
  @inlinable
  var gate: UnsafeMutablePointer<InFlightGate> {
    withUnsafeMutablePointerToHeader { header in
      (UnsafeMutableRawPointer(header) + MemoryLayout<Header>.offset(of: \.gateStorage)!)
        .assumingMemoryBound(to: InFlightGate.self)
    }
  }

  /// Whether a delivery iterates the list now.
  @inlinable var isInFlight: Bool { !gate.pointee.isIdle }
  @inlinable var takesChangesInFlight: Bool {
    withUnsafeMutablePointerToHeader { $0.pointee.flags & Header.takesChangesInFlight != 0 }
  }

  /// Calls `body` with each observer in order, not retained (the list holds them).
  @inlinable
  func forEachTrigger(_ body: (Trigger) throws -> Void) rethrows {
    try withUnsafeMutablePointers { header, entries in
      for index in 0..<Int(header.pointee.countStorage) {
        try entries[index].trigger?._withUnsafeGuaranteedRef(body)
      }
    }
  }

  /// The observers, in order.
  var triggers: [Trigger] {
    var triggers: [Trigger] = []
    triggers.reserveCapacity(live)
    forEachTrigger { triggers.append($0) }
    return triggers
  }

  /// The slot of `trigger`, found by binary search on its registration order.
  func slot(of trigger: Trigger) -> Int? {
    withUnsafeMutablePointers { header, entries -> Int? in
      var low = 0
      let count = Int(header.pointee.countStorage)
      var high = count
      while low < high {
        let middle = (low + high) / 2
        if entries[middle].order < trigger.order { low = middle + 1 } else { high = middle }
      }
      // Several links of one path observation share its order.
      while low < count, entries[low].order == trigger.order {
        if entries[low].trigger?.toOpaque() == Unmanaged.passUnretained(trigger).toOpaque() {
          return low
        }
        low += 1
      }
      return nil
    }
  }

  func contains(_ trigger: Trigger) -> Bool { slot(of: trigger) != nil }

  // MARK: - Changes (the registrar's, with both locks held; see above)

  /// Appends `trigger` in place if it goes last and there is room. Only when no delivery
  /// iterates the list.
  func appendInPlace(_ trigger: Trigger) -> Bool {
    withUnsafeMutablePointers { header, entries in
      let count = Int(header.pointee.countStorage)
      guard count < Int(header.pointee.slots),
        count == 0 || entries[count - 1].order <= trigger.order
      else {
        return false
      }
      (entries + count).initialize(to: Entry(order: trigger.order, trigger: .passRetained(trigger)))
      header.pointee.countStorage += 1
      ObserverList.noteAdded(trigger, to: header)
      return true
    }
  }

  /// Whether removing one observer in place leaves the list worth compacting (at least half
  /// of a list of more than a few slots empty).
  var needsCompactingAfterRemoval: Bool { count > 8 && (live - 1) * 2 < count }

  /// Empties the slot of `trigger` in place and returns it (for release after unlocking). Only
  /// when no delivery iterates the list.
  func removeInPlace(at slot: Int) -> Trigger? {
    withUnsafeMutablePointers { header, entries in
      defer { header.pointee.liveStorage -= 1 }
      return entries[slot].trigger.take()?.takeRetainedValue()
    }
  }

  /// A copy with `inserted` in its place by registration order and without `removed`,
  /// compacted, with room to grow; `nil` if it would be empty.
  func copy(inserting inserted: Trigger? = nil, removing removed: Trigger? = nil) -> ObserverList? {
    var triggers = self.triggers
    if let removed { triggers.removeAll { $0 === removed } }
    if let inserted {
      let position = triggers.lastIndex { $0.order <= inserted.order }.map { $0 + 1 } ?? 0
      triggers.insert(inserted, at: position)
    }
    guard !triggers.isEmpty else { return nil }
    return .make(keyIndex: keyIndex, triggers, capacity: triggers.count * 2)
  }
}

extension ObserverList {
  /// Adds what `trigger` needs to the header's counts and flags, field by field.
  static func noteAdded(_ trigger: Trigger, to header: UnsafeMutablePointer<Header>) {
    header.pointee.liveStorage += 1
    if trigger.wantsPrior || !trigger.isTyped { header.pointee.flags |= Header.needsWillPhase }
    if trigger.isTyped && trigger.wantsOld { header.pointee.flags |= Header.wantsOld }
    if trigger.takesChangesInFlight { header.pointee.flags |= Header.takesChangesInFlight }
    header.pointee.recordKinds |= 1 << ((trigger.wantsOld ? 2 : 0) + (trigger.wantsNew ? 1 : 0))
  }
}
