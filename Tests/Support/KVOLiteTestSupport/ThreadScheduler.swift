#if DEBUG
  import Foundation
  import KVOLiteLockPrimitive
  import KVOLiteLocking

  /// Runs every interleaving of a few callers of the code that ships — each on a real thread,
  /// exactly one going on at a time — and checks invariants at every step and at the end: a
  /// deterministic search of the schedules that threads would visit only by chance.
  ///
  /// KVOLite's synchronization (debug builds) stops a thread run under a schedule at every
  /// ``SchedulePoint``: each acquire of a lock (``Lock``, a property lock, a ``RecursiveLock``),
  /// each step of an ``InFlightGate`` and each wait on one, each read of a trigger's state. The
  /// scheduler then lets one thread go on until its next point, choosing among those that can
  /// (a lock is free, a wait's condition holds). A thread's code between two points touches only
  /// what the points guard, so every schedule of the points is every interleaving that matters;
  /// what stays unexplored is what happens between points without a lock or an atomic (data
  /// races, which the thread sanitizer finds) and the memory orders of the atomics (each point
  /// is sequentially consistent here).
  ///
  /// Only the callers count: a lock is free for a caller unless another caller holds it (a
  /// thread of another test that holds it, or shares its property lock, makes the caller wait
  /// a moment in the lock itself, and changes no choice), so the interleavings of a scenario are
  /// the same whatever else the process runs. Objects whose property locks are the same one of
  /// the table's would make them differ: scenarios make theirs with ``distinctLocks(_:others:_:)``.
  /// Locks around caches are not points (``Lock/init(rank:schedules:file:line:)``), and a first
  /// run of the callers, unscheduled, fills what the process fills once.
  ///
  /// The search is depth first over the choice of which thread goes on at each point,
  /// replaying a schedule's prefix on a fresh world and fresh threads each time. It stops at
  /// the first failure, or after `limit` interleavings. A thread that blocks outside a point
  /// (a lock the schedule cannot see) fails the search after `timeout`.
  public enum ThreadScheduler {
    /// One caller: its name in reported schedules, and what it runs.
    public struct Caller {
      /// The caller's name, used in the schedule a failure reports.
      public var name: String
      /// What the caller runs, on a thread of its own.
      public var body: () -> Void

      /// A caller named `name` that runs `body` on a thread of its own.
      public init(_ name: String, _ body: @escaping () -> Void) {
        self.name = name
        self.body = body
      }
    }

    /// Explores the interleavings of the callers `setUp` makes (fresh for each interleaving,
    /// with the world they share). `invariant` is checked at every point, while every caller
    /// is parked, and `atEnd` once they are all done; each returns `nil` when it holds, or what
    /// is wrong. Without `stepsArePoints`, only lock acquires and waits are points (for
    /// scenarios where no gate or trigger state decides anything: no invalidation). With
    /// `preemptions`, a schedule switches away from a caller that could go on at most that many
    /// times (a bound under which most concurrency bugs show, as CHESS found; the rest of each
    /// schedule runs the caller that ran last as long as it can).
    public static func explore<World>(
      limit: Int = 100_000, timeout: Double = 10, stepsArePoints: Bool = true,
      preemptions bound: Int? = nil,
      setUp: () -> (world: World, callers: [Caller]),
      invariant: (World) -> String? = { _ in nil },
      atEnd: (World) -> String? = { _ in nil }
    ) -> ThreadScheduler.Report {
      var prefix: [Int] = []
      // The ready callers at each step of the schedule the prefix replays, as first met: a
      // replay that meets others is a scenario that is not deterministic.
      var met: [[Int]] = []
      var report = ThreadScheduler.Report(interleavings: 0, truncated: false, failure: nil)
      // A first run, unscheduled, fills what the process fills once (a property's accessors
      // handed over, a key path learned), so that every interleaving explored meets the same.
      warmUp(setUp().callers, timeout: timeout / 5)
      while true {
        let (world, callers) = setUp()
        let run = Run(callers.map(\.name), timeout: timeout, stepsArePoints: stepsArePoints)
        var choices: [(chosen: Int, options: Int)] = []
        var preempted = 0
        var diverged: String?
        let failure = run.drive(callers.map(\.body)) { ready, last in
          if choices.count < prefix.count, choices.count < met.count, met[choices.count] != ready,
            diverged == nil
          {
            diverged =
              "not deterministic: at step \(choices.count + 1) the callers that can go on are "
              + "\(ready.map { callers[$0].name }), where a replay met "
              + "\(met[choices.count].map { callers[$0].name })"
          }
          if choices.count >= met.count { met.append(ready) } else { met[choices.count] = ready }
          // Within the bound, any ready caller; at it, the one that ran last if it can go on
          // (switching away from it is a preemption).
          let options =
            bound.map { preempted >= $0 } == true && last.map(ready.contains) == true
            ? [last!] : ready
          let position =
            choices.count < prefix.count ? min(prefix[choices.count], options.count - 1) : 0
          choices.append((position, options.count))
          let chosen = options[position]
          if let last, chosen != last, ready.contains(last) { preempted += 1 }
          return chosen
        } check: {
          invariant(world)
        }
        if let failure = diverged ?? failure ?? atEnd(world) {
          report.failure = (failure, run.schedule)
          return report
        }
        report.interleavings += 1
        while let last = choices.last, last.chosen + 1 >= last.options { choices.removeLast() }
        guard !choices.isEmpty else { return report }
        if report.interleavings >= limit {
          report.truncated = true
          return report
        }
        prefix = choices.map(\.chosen)
        prefix[prefix.count - 1] += 1
      }
    }

    /// Runs `callers` each on a thread of its own, with no schedule, and waits for them (a
    /// scenario that deadlocks by design is left to its exploration after `timeout` seconds).
    private static func warmUp(_ callers: [Caller], timeout: Double) {
      let done = DispatchSemaphore(value: 0)
      for caller in callers {
        let work = Work(body: caller.body)
        Thread {
          work.body()
          done.signal()
        }.start()
      }
      for _ in callers where done.wait(timeout: .now() + timeout) == .timedOut { return }
    }

    /// One interleaving: the callers' threads and the state they share with the driver, under
    /// one mutex (a pthread mutex: not a KVOLite lock, which would be a point itself).
    final class Run: @unchecked Sendable {
      // @unchecked: everything mutable is behind `mutex`.
      enum State {
        case running
        case parked(SchedulePoint)
        case done
      }

      private let names: [String]
      private let timeout: Double
      /// Whether atomic steps (``SchedulePoint/step(_:)``) are points, or only locks and waits.
      private let stepsArePoints: Bool
      private var mutex = pthread_mutex_t()
      /// Signalled when a caller parks or finishes (the driver waits on it).
      private var changed = pthread_cond_t()
      /// One per caller, signalled when it is its turn (or the search failed).
      private var turns: UnsafeMutablePointer<pthread_cond_t>
      private var states: [State]
      /// Each caller's thread record, once it started: what it holds.
      private var records: [UnsafeMutablePointer<kvolite_thread_record_t>?]
      /// The caller allowed to go on, or -1.
      private var turn = -1
      /// Once the search failed, points no longer stop anyone.
      private var released = false
      /// The callers' names, one per step taken.
      private(set) var schedule: [String] = []

      init(_ names: [String], timeout: Double, stepsArePoints: Bool) {
        self.stepsArePoints = stepsArePoints
        self.names = names
        self.timeout = timeout
        states = Array(repeating: .running, count: names.count)
        records = Array(repeating: nil, count: names.count)
        turns = .allocate(capacity: names.count)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
        for index in names.indices { pthread_cond_init(turns + index, nil) }
      }

      deinit {
        for index in names.indices { pthread_cond_destroy(turns + index) }
        turns.deallocate()
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
      }

      /// Runs the callers' `bodies`, one step at a time as `choose` decides among the ready ones
      /// (given with the one chosen last; it returns the one to run), checking `check` at every
      /// step. Returns the first failure.
      func drive(
        _ bodies: [() -> Void], choose: (_ ready: [Int], _ last: Int?) -> Int,
        check: () -> String?
      ) -> String? {
        for (index, body) in bodies.enumerated() {
          let participant = Participant(run: self, index: index)
          let work = Work(body: body)
          let thread = Thread {
            self.started(index, ThreadIdentity.record)
            // Up to its first point, a caller runs on its own: one whose first steps touch what
            // the others share (a weak load racing an object's end) reaches `.start` first.
            Scheduling.run(under: participant) { work.body() }
            self.finish(index)
          }
          thread.stackSize = 1 << 20
          thread.start()
        }
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        var lastChosen: Int?
        while true {
          guard waitUntilParked() else {
            return release("a thread blocked outside a schedule point (timeout)")
          }
          if let broken = check() { return release(broken) }
          let parked = states.indices.filter {
            if case .parked = states[$0] { return true } else { return false }
          }
          if parked.isEmpty { return nil }
          let ready = parked.filter {
            guard case .parked(let point) = states[$0] else { return false }
            return canProceed(point, $0)
          }
          guard !ready.isEmpty else {
            return release(
              "deadlock: "
                + parked.map { index in
                  guard case .parked(let point) = states[index] else { return names[index] }
                  switch point {
                  case .acquire: return "\(names[index]) (a lock another caller holds)"
                  case .wait(let name, _): return "\(names[index]) (\(name))"
                  case .step(let name): return "\(names[index]) (\(name))"
                  case .start: return "\(names[index]) (its start)"
                  }
                }.joined(separator: ", "))
          }
          let chosen = choose(ready, lastChosen)
          lastChosen = chosen
          schedule.append(names[chosen])
          states[chosen] = .running
          turn = chosen
          pthread_cond_signal(turns + chosen)
        }
      }

      /// Whether caller `index` may pass `point` now (with `mutex` held, and every other caller
      /// parked or done): a lock no other caller holds, a wait whose condition holds.
      private func canProceed(_ point: SchedulePoint, _ index: Int) -> Bool {
        guard case .acquire(let lock) = point else { return point.canProceed }
        return !records.indices.contains { other in
          other != index && records[other].map { LockOrder.holds($0, lock) } == true
        }
      }

      /// Caller `index` started, on the thread whose record is `record`.
      fileprivate func started(
        _ index: Int, _ record: UnsafeMutablePointer<kvolite_thread_record_t>
      ) {
        pthread_mutex_lock(&mutex)
        records[index] = record
        pthread_mutex_unlock(&mutex)
      }

      /// Waits (with `mutex` held) until no caller is running. `false` after the timeout.
      private func waitUntilParked() -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_sec += Int(timeout)
        while states.contains(where: { if case .running = $0 { true } else { false } }) {
          if pthread_cond_timedwait(&changed, &mutex, &deadline) == ETIMEDOUT { return false }
        }
        return true
      }

      /// Lets every caller run freely from now on (the search failed); returns `failure`.
      private func release(_ failure: String) -> String {
        released = true
        turn = -1
        for index in names.indices { pthread_cond_signal(turns + index) }
        return failure
      }

      /// Caller `index` reached `point`: parks until it is its turn.
      fileprivate func reach(_ index: Int, _ point: SchedulePoint) {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard !released else { return }
        // Inside a critical section, only a wait is a point: what other callers may do
        // meanwhile without the lock commutes with it (one interleaving before it, one after).
        if LockOrder.heldLockCount > 0, canProceed(point, index) { return }
        if case .step = point, !stepsArePoints { return }
        states[index] = .parked(point)
        pthread_cond_signal(&changed)
        while turn != index, !released { pthread_cond_wait(turns + index, &mutex) }
        turn = -1
      }

      /// Caller `index` returned.
      fileprivate func finish(_ index: Int) {
        pthread_mutex_lock(&mutex)
        states[index] = .done
        // Its thread ends: its record is another thread's next (what it holds, it released).
        records[index] = nil
        pthread_cond_signal(&changed)
        pthread_mutex_unlock(&mutex)
      }

      /// Whether the search failed and the callers run freely.
      fileprivate var isReleased: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return released
      }
    }

    /// A caller's body, handed to its thread (which alone runs it).
    struct Work: @unchecked Sendable {
      let body: () -> Void
    }

    /// One caller's side of the schedule: what its thread's record points to.
    final class Participant: ThreadSchedule, @unchecked Sendable {
      // @unchecked: immutable; `run` is thread-safe.
      let run: Run
      let index: Int

      init(run: Run, index: Int) {
        self.run = run
        self.index = index
      }

      func reach(_ point: SchedulePoint) {
        run.reach(index, point)
        // Once the search failed, the thread's waits are real waits again.
        if run.isReleased { ThreadIdentity.record.pointee.schedule = nil }
      }
    }
  }
#endif

#if DEBUG
  import KVOLite

  extension ThreadScheduler {
    /// Makes `count` objects with `make`, none of which shares its property lock with another
    /// or with any of `others` (the lock is chosen by address, so objects of one scenario could
    /// share one in some interleavings and not in others). Deterministic in effect: it makes
    /// objects until it has `count` whose locks differ, and releases the others.
    public static func distinctLocks<Object: AnyObject>(
      _ count: Int, others: [AnyObject] = [], _ make: () -> Object
    ) -> [Object] {
      var taken = Set(others.map { PropertyLock.index(of: $0) })
      var made: [Object] = []
      var discarded: [Object] = []
      while made.count < count {
        let object = make()
        if taken.insert(PropertyLock.index(of: object)).inserted {
          made.append(object)
        } else {
          discarded.append(object)
        }
      }
      return made
    }
  }
#endif
