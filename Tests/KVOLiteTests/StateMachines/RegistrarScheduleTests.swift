#if DEBUG
  import KVOLite
  import KVOLiteTestSupport
  import Synchronization
  import Testing

  @Suite("Registrar schedules")
  struct RegistrarScheduleTests {
    final class World: @unchecked Sendable {
      let person = ThreadScheduler.distinctLocks(1) { Person() }[0]
      var token: ObservationToken?
      let calls = Atomic<Int>(0)
      let inHandler = Atomic<Int>(0)
      let returned = Atomic<Bool>(false)
      let late = Atomic<Int>(0)
    }

    @Test("two sets and an invalidation")
    func twoSetsAndACancel() {
      let report = ThreadScheduler.explore(
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World()
          world.token = world.person.observe(\.firstName) { [unowned world] _, _ in
            if world.returned.load(ordering: .relaxed) { world.late.add(1, ordering: .relaxed) }
          }
          return (
            world,
            [
              .init("set 1") { world.person.firstName = "a" },
              .init("set 2") { world.person.firstName = "b" },
              .init("invalidate") {
                world.token!.invalidate()
                world.returned.store(true, ordering: .relaxed)
              },
            ]
          )
        },
        atEnd: { $0.late.load(ordering: .relaxed) == 0 ? nil : "late call" })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 308)
    }
  }
#endif
