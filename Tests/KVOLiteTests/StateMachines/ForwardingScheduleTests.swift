#if DEBUG
  import KVOLite
  import KVOLiteTestSupport
  import Synchronization
  import Testing

  /// Every interleaving of the callers of a forwarded key path (the shipped
  /// `ForwardedObservation`: its mover, its end), run one thread at a time by
  /// ``ThreadScheduler``: the registration of the rest ends on the object the path leads to
  /// after the last change, nothing is called after `invalidate()` returned, and an ended
  /// observation leaves no registration behind.
  @Suite("Forwarded key path schedules")
  struct ForwardingScheduleTests {
    class Vehicle: KeyValueObservable, @unchecked Sendable {
      let observationRegistrar = ObservationRegistrar()
      @Observed var wheels = 4
    }

    final class Bus: Vehicle, @unchecked Sendable {
      @Observed var seats = 40
    }

    final class Garage: KeyValueObservable, @unchecked Sendable {
      let observationRegistrar = ObservationRegistrar()
      @Observed var vehicle: Vehicle = Vehicle()
    }

    final class World: @unchecked Sendable {
      let garage: Garage
      let buses: [Bus]
      /// A vehicle with no seats, for the path to lead nowhere.
      let car: Vehicle
      var token: ObservationToken?
      let heard = Log<Int?>()
      let returned = Atomic<Bool>(false)
      let late = Atomic<Int>(0)

      init() {
        garage = ThreadScheduler.distinctLocks(1) { Garage() }[0]
        buses = ThreadScheduler.distinctLocks(2, others: [garage, garage.vehicle]) { Bus() }
        car =
          ThreadScheduler.distinctLocks(1, others: [garage, garage.vehicle] + buses) {
            Vehicle()
          }[0]
        garage.vehicle = buses[0]
        token = try! garage.observe("vehicle.seats", options: [.new]) { [unowned self] change in
          if returned.load(ordering: .relaxed) { late.add(1, ordering: .relaxed) }
          heard.append((change.newValue ?? nil) as? Int)
        }
      }

      /// Whether a set of `bus`'s seats is heard (its registration is there).
      func hears(_ bus: Bus) -> Bool {
        let before = heard.all.count
        bus.seats += 1
        return heard.all.count > before
      }
    }

    @Test("two replacements of the middle object at once: the rest registered on the last one")
    func twoReplacements() {
      let report = ThreadScheduler.explore(
        stepsArePoints: false, preemptions: 2,
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World()
          return (
            world,
            [
              .init("to bus 2") { world.garage.vehicle = world.buses[1] },
              .init("to a car") { world.garage.vehicle = world.car },
            ]
          )
        },
        atEnd: { world in
          let last = world.garage.vehicle as? Bus
          for bus in world.buses where world.hears(bus) != (bus === last) {
            return "a registration on the wrong object: \(bus === world.buses[0] ? 1 : 2)"
          }
          return nil
        })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 192)
    }

    @Test("a replacement racing invalidate(): nothing after it returns, no registration left")
    func replacementRacingInvalidate() {
      let report = ThreadScheduler.explore(
        preemptions: 2,
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World()
          return (
            world,
            [
              .init("replace") { world.garage.vehicle = world.buses[1] },
              .init("invalidate") {
                world.token?.invalidate()
                world.returned.store(true, ordering: .relaxed)
              },
            ]
          )
        },
        atEnd: { world in
          if world.late.load(ordering: .relaxed) > 0 {
            return "a handler call after invalidate() returned"
          }
          for bus in world.buses where bus.observationRegistrar.triggerCount > 0 {
            return "a registration left on bus \(bus === world.buses[0] ? 1 : 2)"
          }
          return nil
        })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 75)
    }
  }
#endif
