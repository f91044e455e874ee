import KVOLiteLockPrimitive

/// Where a lock stands in KVOLite's one lock order.
///
/// The only nesting allowed is a links observation's lock (``links``), then a property lock
/// (``property``): placing a link adds a trigger to the linked object's registrar, under that
/// object's property lock. Nothing is taken while a property lock or a ``leaf`` lock is held.
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

extension UnsafeMutablePointer where Pointee == LockPrimitive {
  /// Acquires the lock, of rank `rank` and named `name` (a fixed name when `line` is 0, else
  /// the file that made it): in debug builds, checked against the lock order and a schedule
  /// point (unless `schedules` is `false`); in release builds, only acquired.
  @inlinable @inline(__always)
  package func acquire(
    rank: LockRank, name: StaticString, line: UInt = 0, schedules: Bool = true
  ) {
    #if DEBUG
      LockOrder.willAcquire(self, rank: rank, name: name, line: line, schedules: schedules)
    #endif
    acquire()
    #if DEBUG
      LockOrder.didAcquire(self, rank: rank, name: name, line: line)
    #endif
  }

  /// Releases the lock, which ``acquire(rank:name:line:schedules:)`` acquired.
  @inlinable @inline(__always)
  package func releaseChecked() {
    #if DEBUG
      LockOrder.willRelease(self)
    #endif
    release()
  }
}

#if DEBUG
  /// Checks KVOLite's lock rules as they happen, in debug and sanitizer builds (none of it is
  /// compiled in release builds): every ``Lock``, ``PropertyLock`` and ``RecursiveLock`` lists
  /// itself in the calling thread's record (``ThreadIdentity``) while held; each acquire checks
  /// the ranked order (``LockRank``) against what the thread holds, stopping the program with
  /// both locks named when it is broken; a call-out (a handler, a getter) stops it when it
  /// starts while a lock other than a delivery lock is held. A cycle of waits needs a broken
  /// order somewhere, so a run that never stops here cannot deadlock on these locks (the way
  /// Abseil's deadlock detection and Linux's lockdep check at run time). Each acquire is also a
  /// schedule point (``Scheduling``).
  @usableFromInline package enum LockOrder {
    @usableFromInline
    static func willAcquire(
      _ lock: UnsafeMutablePointer<LockPrimitive>, rank: LockRank, name: StaticString,
      line: UInt, schedules: Bool
    ) {
      for outer in held where rank != .delivery {
        let outerRank = LockRank(rawValue: outer.rank) ?? .leaf
        guard outer.lock != UnsafeRawPointer(lock), rank.mayBeTaken(inside: outerRank) else {
          fatalError(
            "KVOLite lock order: \(describe(name, line)) (rank \(rank)) is taken while "
              + "\(describe(outer)) (rank \(outerRank)) is held; the one order is a links "
              + "observation's lock, then a property lock")
        }
      }
      if schedules { Scheduling.reach(.acquire(UnsafeRawPointer(lock))) }
    }

    @usableFromInline
    static func didAcquire(
      _ lock: UnsafeMutablePointer<LockPrimitive>, rank: LockRank, name: StaticString, line: UInt
    ) {
      let record = ThreadIdentity.record
      let index = record.pointee.held_count
      record.pointee.held_count += 1
      guard index < Int(KVOLITE_HELD_LOCKS) else { return }
      kvolite_held_locks()![index] = kvolite_held_lock_t(
        lock: UnsafeRawPointer(lock), rank: rank.rawValue,
        name: UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self),
        name_length: name.utf8CodeUnitCount, line: Int(line))
    }

    @usableFromInline
    static func willRelease(_ lock: UnsafeMutablePointer<LockPrimitive>) {
      let listed = held
      ThreadIdentity.record.pointee.held_count -= 1
      guard let index = listed.lastIndex(where: { $0.lock == UnsafeRawPointer(lock) }) else {
        return
      }
      for moved in (index + 1)..<listed.count { listed[moved - 1] = listed[moved] }
    }

    /// Stops the program if the calling thread holds a lock other than a delivery lock while
    /// `callOut` (code outside KVOLite's critical sections: a handler, a getter) starts.
    @usableFromInline
    package static func checkCallOut(_ callOut: @autoclosure () -> String) {
      guard let lock = held.first(where: { $0.rank != LockRank.delivery.rawValue }) else { return }
      fatalError("KVOLite lock order: \(callOut()) is called while \(describe(lock)) is held")
    }

    /// Whether the thread whose record is `record` holds the lock at `lock` (for schedules:
    /// read while that thread is parked).
    package static func holds(
      _ record: UnsafeMutablePointer<kvolite_thread_record_t>, _ lock: UnsafeRawPointer
    ) -> Bool {
      let count = min(record.pointee.held_count, Int(KVOLITE_HELD_LOCKS))
      return withUnsafeBytes(of: &record.pointee.held) {
        $0.bindMemory(to: kvolite_held_lock_t.self).prefix(count).contains { $0.lock == lock }
      }
    }

    /// How many locks other than delivery locks the calling thread holds.
    package static var heldLockCount: Int {
      held.count { $0.rank != LockRank.delivery.rawValue }
    }

    /// The locks the calling thread's record lists, outermost first (in the record itself:
    /// no allocation on each acquire).
    private static var held: UnsafeMutableBufferPointer<kvolite_held_lock_t> {
      let count = min(ThreadIdentity.record.pointee.held_count, Int(KVOLITE_HELD_LOCKS))
      return UnsafeMutableBufferPointer(start: kvolite_held_locks(), count: count)
    }

    private static func describe(_ name: StaticString, _ line: UInt) -> String {
      line == 0 ? "\(name)" : "the lock made at \(name):\(line)"
    }

    private static func describe(_ held: kvolite_held_lock_t) -> String {
      let text = String(
        decoding: UnsafeRawBufferPointer(start: held.name, count: held.name_length),
        as: UTF8.self)
      return held.line == 0 ? text : "the lock made at \(text):\(held.line)"
    }
  }
#endif
