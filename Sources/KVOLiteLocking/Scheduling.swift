#if DEBUG
  import KVOLiteLockPrimitive

  /// A point where a thread run by a test's schedule waits for its turn (debug builds only):
  /// each acquire of a ``Lock`` or ``PropertyLock`` or ``RecursiveLock``, each step of an
  /// ``InFlightGate`` and each wait on one, each read of a trigger's state.
  @usableFromInline package enum SchedulePoint {
    /// The lock whose word is at this address is about to be acquired: the thread may go on
    /// once it is free.
    case acquire(UnsafeRawPointer)
    /// The thread waits (a gate's wait, a recursive lock held by another thread): it may go on
    /// once `condition` holds.
    case wait(StaticString, condition: () -> Bool)
    /// An atomic step that other threads may see (a gate's enter, leave or close; a trigger's
    /// state read): the thread may go on at once.
    case step(StaticString)
    /// A thread's start under a schedule: it may go on at once.
    case start

    /// Whether the thread may go on now. Called by the schedule while every other thread it
    /// runs is parked at a point.
    package var canProceed: Bool {
      switch self {
      case .acquire(let lock):
        kvolite_lock_is_free(lock.assumingMemoryBound(to: LockPrimitive.self)) != 0
      case .wait(_, let condition): condition()
      case .step, .start: true
      }
    }
  }

  /// What a test's schedule does with its threads (the test support's `ThreadScheduler`): runs
  /// them one at a time, choosing at every point which one goes on.
  package protocol ThreadSchedule: AnyObject, Sendable {
    /// The calling thread, one of this schedule's, reached `point`; returns when it may go on.
    func reach(_ point: SchedulePoint)
  }

  /// The schedule hooks of KVOLite's synchronization (debug builds only): a thread run under a
  /// ``ThreadSchedule`` asks it at every ``SchedulePoint``; every other thread goes on, at the
  /// cost of one load of its record.
  @usableFromInline package enum Scheduling {
    /// Asks the calling thread's schedule, if it has one, whether it may pass `point`.
    @inlinable @inline(__always)
    package static func reach(_ point: @autoclosure () -> SchedulePoint) {
      guard let schedule = ThreadIdentity.record.pointee.schedule else { return }
      reachSlow(schedule, point())
    }

    @usableFromInline
    static func reachSlow(_ schedule: UnsafeMutableRawPointer, _ point: SchedulePoint) {
      Unmanaged<ScheduleReference>.fromOpaque(schedule).takeUnretainedValue().schedule.reach(point)
    }

    /// Runs `body` on the calling thread under `schedule`: every point it reaches asks it.
    package static func run(under schedule: any ThreadSchedule, _ body: () -> Void) {
      let reference = Unmanaged.passRetained(ScheduleReference(schedule))
      ThreadIdentity.record.pointee.schedule = reference.toOpaque()
      defer {
        ThreadIdentity.record.pointee.schedule = nil
        reference.release()
      }
      body()
    }
  }

  /// A schedule, as the thread record holds it (a raw pointer to this).
  final class ScheduleReference {
    let schedule: any ThreadSchedule

    init(_ schedule: any ThreadSchedule) { self.schedule = schedule }
  }
#endif
