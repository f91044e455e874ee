#if DEBUG
  import KVOLite
  import KVOLiteLocking
  import KVOLiteTestSupport
  import Synchronization
  import Testing

  /// Every interleaving of sets delivering from a key's list, invalidations, a registration
  /// and the object's end, on the shipped registrar (its machine, its published lists and their
  /// gates), run one thread at a time by ``ThreadScheduler``: no handler is called after its
  /// `invalidate()` returned, and every observer still registered hears each set.
  @Suite("Registrar schedules")
  struct RegistrarScheduleTests {
    final class World: @unchecked Sendable {
      var person: Person? = ThreadScheduler.distinctLocks(1) { Person() }[0]
      weak var weakPerson: Person?
      var tokens: [ObservationToken] = []
      /// Which observers' `invalidate()` returned (bit `index`), and their calls after.
      let returned = Atomic<Int>(0)
      let late = Atomic<Int>(0)
      let added = Atomic<Int>(0)

      init() {
        weakPerson = person
        for index in 0..<2 {
          tokens.append(
            person!.observe(\.firstName) { [unowned self] _, _ in
              if returned.load(ordering: .relaxed) & (1 << index) != 0 {
                late.add(1, ordering: .relaxed)
              }
            })
        }
      }

      /// A caller that sets the first name, if the person is alive.
      func set(_ name: String) -> ThreadScheduler.Caller {
        .init("set \(name)") { [weak person = weakPerson] in
          // The weak load races the object's end: a point of its own.
          Scheduling.reach(.start)
          person?.firstName = name
        }
      }

      /// A caller that invalidates observer `index`.
      func invalidate(_ index: Int) -> ThreadScheduler.Caller {
        .init("invalidate \(index)") { [self] in
          tokens[index].invalidate()
          returned.bitwiseOr(1 << index, ordering: .relaxed)
        }
      }

      var atEnd: String? {
        late.load(ordering: .relaxed) == 0 ? nil : "a handler called after invalidate() returned"
      }
    }

    static func explore(_ callers: @escaping (World) -> [ThreadScheduler.Caller])
      -> ThreadScheduler.Report
    {
      ThreadScheduler.explore(
        preemptions: 2,
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World()
          return (world, callers(world))
        },
        atEnd: { $0.atEnd })
    }

    @Test("two sets and an invalidation")
    func twoSetsAndACancel() {
      let report = Self.explore { [$0.set("a"), $0.set("b"), $0.invalidate(0)] }
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 340)
    }

    @Test("a set, and both observers invalidated at once")
    func twoCancels() {
      let report = Self.explore { [$0.set("a"), $0.invalidate(0), $0.invalidate(1)] }
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 126)
    }

    @Test("a set, an invalidation, a registration and the object's end")
    func setCancelAddAndEnd() {
      let report = Self.explore { world in
        [
          world.set("a"), world.invalidate(0),
          .init("add") { [weak person = world.weakPerson] in
            Scheduling.reach(.start)
            guard let person else { return }
            let token = person.observe(\.firstName) { _, _ in }
            world.added.add(1, ordering: .relaxed)
            withExtendedLifetime(token) {}
          },
          .init("end") { world.person = nil },
        ]
      }
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 24)
    }
  }
#endif
