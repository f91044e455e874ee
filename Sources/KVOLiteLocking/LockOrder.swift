import KVOLiteLockPrimitive

/// Where a lock stands in KVOLite's one lock order.
///
/// The only nesting allowed is a links observation's lock (``links``), then a property lock
/// (``property``): placing a link adds a trigger to the linked object's registrar, under that
/// object's property lock. Nothing is taken while a property lock or a ``leaf`` lock is held.
/// (Combine's delivery locks, ``RecursiveLock``s, are held across user code by design and are
/// outside the order: taking one is a call-out, checked as one.)
@usableFromInline package enum LockRank: Int, Sendable {
  /// A delivery lock (``RecursiveLock``): outside the order, listed only so that schedules
  /// see who holds it. Taking one is a call-out (``DeliveryScope``), checked as one; any lock
  /// may be taken inside it.
  case delivery = 0
  /// A links observation's lock: a property lock may be taken inside it.
  case links = 1
  /// An object's property lock (``PropertyLock``): nothing may be taken inside it.
  case property = 2
  /// Every other lock: nothing may be taken inside it.
  case leaf = 3

  /// Whether a lock of this rank may be taken while the thread holds one of rank `outer`.
  @inlinable
  package func mayBeTaken(inside outer: LockRank) -> Bool {
    outer == .delivery || self == .delivery || (outer == .links && self == .property)
  }
}

/// A lock's name in the lock order's messages: where it was made (`#fileID` and `#line` of
/// its owner's declaration), or a fixed text when `line` is 0.
@frozen @usableFromInline
package struct LockName: Sendable {
  @usableFromInline let text: StaticString
  @usableFromInline let line: UInt

  /// The name `text` (a fixed name when `line` is 0; a file otherwise).
  @inlinable
  package init(_ text: StaticString, line: UInt = 0) {
    self.text = text
    self.line = line
  }
}

#if DEBUG
  /// Checks KVOLite's lock rules as they happen, in debug and sanitizer builds (none of it is
  /// compiled in release builds): every ``Lock`` and ``PropertyLock`` lists itself in the
  /// calling thread's record (``ThreadIdentity``) while held, and each acquire checks the ranked
  /// order (``LockRank``) against what the thread holds, stopping the program with both locks
  /// named when it is broken; a call-out (a handler, a getter, a setter, a user closure)
  /// stops it when it starts while one of them is held. A cycle of waits needs a broken order
  /// somewhere, so a run that never stops here cannot deadlock on these locks (the way Abseil's
  /// deadlock detection and Linux's lockdep check at run time).
  ///
  /// Each acquire is also a schedule point (``Scheduling``): a thread run by a test's schedule
  /// waits there for its turn.
  @usableFromInline package enum LockOrder {
    /// The calling thread is about to acquire `lock`, of rank `rank`, named `name`.
    @usableFromInline
    package static func willAcquire(
      _ lock: UnsafeMutablePointer<LockPrimitive>, rank: LockRank, name: LockName,
      schedules: Bool = true
    ) {
      let held = kvolite_held_locks()!
      for index in 0..<listedCount {
        let outer = held[index]
        if outer.lock == UnsafeRawPointer(lock), rank != .delivery {
          fatalError("KVOLite lock order: \(describe(name)) is taken again by its holder")
        }
        let outerRank = LockRank(rawValue: outer.rank) ?? .leaf
        if !rank.mayBeTaken(inside: outerRank) {
          fatalError(
            "KVOLite lock order: \(describe(name)) (rank \(rank)) is taken while "
              + "\(describe(outer)) (rank \(outerRank)) is held; the one order is a links "
              + "observation's lock, then a property lock")
        }
      }
      if schedules { Scheduling.reach(.acquire(UnsafeRawPointer(lock))) }
    }

    /// The calling thread acquired `lock`.
    @usableFromInline
    package static func didAcquire(
      _ lock: UnsafeMutablePointer<LockPrimitive>, rank: LockRank, name: LockName
    ) {
      let record = ThreadIdentity.record
      let index = record.pointee.held_count
      record.pointee.held_count += 1
      guard index < Int(KVOLITE_HELD_LOCKS) else { return }
      kvolite_held_locks()![index] = kvolite_held_lock_t(
        lock: UnsafeRawPointer(lock), rank: rank.rawValue,
        name: UnsafeRawPointer(name.text.utf8Start).assumingMemoryBound(to: CChar.self),
        name_length: name.text.utf8CodeUnitCount, line: Int(name.line))
    }

    /// The calling thread is about to release `lock`, which it holds.
    @usableFromInline
    package static func willRelease(_ lock: UnsafeMutablePointer<LockPrimitive>) {
      let record = ThreadIdentity.record
      let listed = listedCount
      guard record.pointee.held_count > 0 else {
        fatalError("KVOLite lock order: a lock is released by a thread that holds none")
      }
      record.pointee.held_count -= 1
      let held = kvolite_held_locks()!
      guard let index = (0..<listed).last(where: { held[$0].lock == UnsafeRawPointer(lock) })
      else { return }
      for moved in index..<(listed - 1) { held[moved] = held[moved + 1] }
    }

    /// Stops the program if the calling thread holds a lock while `callOut` (code outside
    /// KVOLite's critical sections: a handler, a getter, a user closure) starts.
    @inlinable
    package static func checkCallOut(_ callOut: @autoclosure () -> String) {
      if _slowPath(ThreadIdentity.record.pointee.held_count != 0) {
        checkCallOutSlowly(callOut())
      }
    }

    @usableFromInline
    static func checkCallOutSlowly(_ callOut: String) {
      let held = kvolite_held_locks()!
      // Delivery locks are held across call-outs by design.
      guard
        let index = (0..<listedCount).first(where: {
          held[$0].rank != LockRank.delivery.rawValue
        })
      else { return }
      fatalError("KVOLite lock order: \(callOut) is called while \(describe(held[index])) is held")
    }

    /// Whether the thread whose record is `record` holds the lock at `lock` (for schedules: read
    /// while that thread is parked).
    package static func holds(
      _ record: UnsafeMutablePointer<kvolite_thread_record_t>, _ lock: UnsafeRawPointer
    ) -> Bool {
      let listed = min(record.pointee.held_count, Int(KVOLITE_HELD_LOCKS))
      return withUnsafeMutablePointer(to: &record.pointee.held) { tuple in
        UnsafeMutableRawPointer(tuple).withMemoryRebound(
          to: kvolite_held_lock_t.self, capacity: Int(KVOLITE_HELD_LOCKS)
        ) { held in (0..<listed).contains { held[$0].lock == lock } }
      }
    }

    /// How many locks other than delivery locks the calling thread holds.
    package static var heldLockCount: Int {
      let held = kvolite_held_locks()!
      return (0..<listedCount).count { held[$0].rank != LockRank.delivery.rawValue }
    }

    /// How many locks the calling thread holds.
    package static var heldCount: Int { ThreadIdentity.record.pointee.held_count }

    /// How many of the held locks the record lists.
    private static var listedCount: Int {
      min(ThreadIdentity.record.pointee.held_count, Int(KVOLITE_HELD_LOCKS))
    }

    private static func describe(_ name: LockName) -> String {
      name.line == 0 ? "\(name.text)" : "the lock made at \(name.text):\(name.line)"
    }

    private static func describe(_ held: kvolite_held_lock_t) -> String {
      let bytes = UnsafeRawBufferPointer(start: held.name, count: held.name_length)
      let text = String(decoding: bytes, as: UTF8.self)
      return held.line == 0 ? text : "the lock made at \(text):\(held.line)"
    }
  }
#endif
