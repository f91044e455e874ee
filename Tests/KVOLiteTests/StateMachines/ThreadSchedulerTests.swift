#if DEBUG
  import KVOLite
  import KVOLiteLocking
  import KVOLiteTestSupport
  import Synchronization
  import Testing

  /// The scheduler that runs shipped code on real threads, one at a time: it visits every
  /// interleaving of the points (here, lock acquires), finds the lost update of a read and a
  /// write made under two holds of a lock, and reports a deadlock.
  @Suite("Thread scheduler")
  struct ThreadSchedulerTests {
    /// A counter behind a lock, incremented right (one hold) or wrong (a read, then a write).
    final class Tally: @unchecked Sendable {
      let lock = Lock()
      var value = 0

      func increment() { lock.withLock { value += 1 } }

      func incrementInTwoSteps() {
        let read = lock.withLock { value }
        lock.withLock { value = read + 1 }
      }
    }

    @Test("two increments under one hold each: every interleaving ends at 2")
    func atomicIncrements() {
      let report = ThreadScheduler.explore(
        setUp: { () -> (Tally, [ThreadScheduler.Caller]) in
          let tally = Tally()
          return (tally, [.init("a") { tally.increment() }, .init("b") { tally.increment() }])
        },
        atEnd: { $0.value == 2 ? nil : "ended at \($0.value)" })
      #expect(report.failure == nil, "\(report)")
      // Each caller has one point, its acquire: which goes first.
      #expect(report.interleavings == 2)
    }

    @Test("a read and a write under two holds: the lost update is found")
    func lostUpdate() {
      let report = ThreadScheduler.explore(
        setUp: { () -> (Tally, [ThreadScheduler.Caller]) in
          let tally = Tally()
          return (
            tally,
            [
              .init("a") { tally.incrementInTwoSteps() },
              .init("b") { tally.incrementInTwoSteps() },
            ]
          )
        },
        atEnd: { $0.value == 2 ? nil : "ended at \($0.value)" })
      #expect(report.failure?.message == "ended at 1")
      #expect(report.failure?.schedule == ["a", "b", "a", "b"])
    }

    @Test("a gate waited for while its caller never leaves: a deadlock, reported")
    func deadlock() {
      final class World: @unchecked Sendable {
        let gate = InFlightGate()
      }
      var worlds: [World] = []
      let report = ThreadScheduler.explore(
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World()
          worlds.append(world)
          _ = world.gate.enter()
          return (world, [.init("waiter") { world.gate.closeAndWait() }])
        })
      #expect(report.failure?.message == "deadlock: waiter (InFlightGate.closeAndWait)")
      // The waiter waits for real once the search failed: let it go.
      for world in worlds { world.gate.leave() }
    }

    @Test("a gate's wait goes on once the caller inside leaves")
    func gateWait() {
      final class World: @unchecked Sendable {
        let gate = InFlightGate()
        let left = Atomic<Bool>(false)
        var waitedForLeave = true
      }
      let report = ThreadScheduler.explore(
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World()
          return (
            world,
            [
              .init("inside") {
                guard world.gate.enter() else { return }
                world.left.store(true, ordering: .relaxed)
                world.gate.leave()
              },
              .init("closer") {
                world.gate.closeAndWait()
                if world.gate.isClosed, !world.gate.isIdle { world.waitedForLeave = false }
              },
            ]
          )
        },
        atEnd: { $0.waitedForLeave ? nil : "closeAndWait returned with a caller inside" })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 3)
    }
  }
#endif
