#if DEBUG
  import KVOLite
  import KVOLiteTestSupport
  import Synchronization
  import Testing

  /// Every interleaving of the links machine's callers, on the shipped observation (its
  /// readings, placings and the sets that race them, its invalidation), run one thread at a
  /// time by ``ThreadScheduler``: the value found by reading is never lost to a set racing the
  /// placing of its new input's link, and no handler runs after `invalidate()` returned.
  @Suite("Links schedules")
  struct LinksScheduleTests {
    /// A computed property whose inputs change with its branch.
    final class Switch: KeyValueObservable, @unchecked Sendable {
      let observationRegistrar = ObservationRegistrar()
      @Observed var flag = false
      @Observed var a = 0
      @Observed var b = 0
      @Observed var part = Part()
      @Observed var parts: [Part] = []
      var value: String { flag ? "A\(a)" : "B\(b)" }
      var partName: String { part.name }
      var total: Int { parts.reduce(0) { $0 + $1.weight } }
    }

    final class Part: KeyValueObservable, @unchecked Sendable {
      let observationRegistrar = ObservationRegistrar()
      @Observed var name = ""
      @Observed var weight = 0
    }

    /// What the callers share: the model, a second part (made with it, so that their locks
    /// differ), the observation and what it delivered.
    final class World<Value: Equatable & Sendable>: @unchecked Sendable {
      let model: Switch
      let spare: Part
      var token: ObservationToken?
      let delivered = Locked<[Value]>([])
      let returned = Atomic<Bool>(false)
      let late = Atomic<Int>(0)

      init() {
        model = ThreadScheduler.distinctLocks(1) { Switch() }[0]
        spare = ThreadScheduler.distinctLocks(1, others: [model, model.part]) { Part() }[0]
      }

      /// Observes `keyPath` of the model, recording every new value.
      func observe(_ keyPath: KeyPath<Switch, Value>) {
        token = model.observe(keyPath, options: [.new]) { [unowned self] _, change in
          if returned.load(ordering: .relaxed) { late.add(1, ordering: .relaxed) }
          if let new = change.newValue { delivered.withLock { $0.append(new) } }
        }
      }

      /// `nil` if `final` was delivered; otherwise what went wrong.
      func told(_ final: Value) -> String? {
        let delivered = delivered.withLock { $0 }
        return delivered.contains(final)
          ? nil : "the final value \(final) never delivered: \(delivered)"
      }
    }

    @Test("a branch switched while its new input is set: the final value is delivered")
    func branchSwitchRacingNewInput() {
      let report = ThreadScheduler.explore(
        stepsArePoints: false,
        setUp: { () -> (World<String>, [ThreadScheduler.Caller]) in
          let world = World<String>()
          world.observe(\.value)
          return (
            world,
            [.init("switch") { world.model.flag = true }, .init("set a") { world.model.a = 1 }]
          )
        },
        atEnd: { $0.told($0.model.value) })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 187)
    }

    @Test("a to-one replaced while the new object's input is set: the final value is delivered")
    func relationshipReplacedRacingItsInput() {
      let report = ThreadScheduler.explore(
        stepsArePoints: false,
        setUp: { () -> (World<String>, [ThreadScheduler.Caller]) in
          let world = World<String>()
          world.observe(\.partName)
          let spare = world.spare
          return (
            world,
            [
              .init("replace") { world.model.part = spare },
              .init("name") { spare.name = "new" },
            ]
          )
        },
        atEnd: { $0.told($0.model.partName) })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 382)
    }

    @Test("an element appended while its key is set: the final total is delivered")
    func elementAppendedRacingItsKey() {
      let report = ThreadScheduler.explore(
        stepsArePoints: false,
        setUp: { () -> (World<Int>, [ThreadScheduler.Caller]) in
          let world = World<Int>()
          world.observe(\.total)
          let spare = world.spare
          return (
            world,
            [
              .init("append") { world.model.parts.append(spare) },
              .init("weigh") { spare.weight = 5 },
            ]
          )
        },
        atEnd: { $0.told($0.model.total) })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 46)
    }

    @Test("invalidated while a reading drops the link a set delivers through: nothing after")
    func invalidatedWhileALinkIsDropped() {
      let report = ThreadScheduler.explore(
        preemptions: 2,
        setUp: { () -> (World<String>, [ThreadScheduler.Caller]) in
          let world = World<String>()
          world.observe(\.value)
          return (
            world,
            [
              .init("switch") { world.model.flag = true },
              .init("set b") { world.model.b = 1 },
              .init("invalidate") {
                world.token?.invalidate()
                world.returned.store(true, ordering: .relaxed)
              },
            ]
          )
        },
        atEnd: { world in
          let late = world.late.load(ordering: .relaxed)
          return late == 0 ? nil : "\(late) handler calls after invalidate() returned"
        })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 2934)
    }
  }
#endif
