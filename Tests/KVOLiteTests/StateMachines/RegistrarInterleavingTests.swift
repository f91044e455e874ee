import KVOLiteTestSupport
import Testing

@testable import KVOLite

/// Every interleaving of sets delivering from a key's list, cancellations, a registration and
/// the object's end, on a registrar context (its transitions, its published list, the lists'
/// gates), simulated one step at a time: a delivery enters the published list, checks each
/// trigger, calls its handler, leaves; a cancellation removes its trigger and waits for the
/// lists that still hold it.
@Suite("Registrar interleavings")
struct RegistrarInterleavingTests {
  /// What the simulated threads share.
  final class World {
    let person = Person()
    let context: RegistrarContext
    /// The trigger the scenarios cancel, and another one.
    let cancelled: Trigger
    let other: Trigger
    var threads: [SimulatedThread] = []
    /// Calls of each trigger's handler in progress.
    var inHandler: [ObjectIdentifier: Int] = [:]
    var cancelReturned = false
    var violation: String?
    /// Every list a delivery entered, to check that all were left.
    var entered: [ObserverList] = []

    init() {
      context = person.observationRegistrar.context(of: person)
      other = Self.trigger(context)
      cancelled = Self.trigger(context)
      _ = context.add(other)
      _ = context.add(cancelled)
    }

    static func trigger(_ context: RegistrarContext, options: ObservingOptions = []) -> Trigger {
      Trigger(
        order: nextRegistrationOrder(), context: context, keyIndex: 0, isTyped: true,
        options: options)
    }

    /// A set of the key: enters the published list, delivers to each trigger (checking it is
    /// active, then calling its handler), leaves.
    func set(_ name: String) -> SimulatedThread {
      let thread = SimulatedThread(name)
      thread.then(
        .init { [self] in
          guard let list = context.enterCurrentList(key: 0) else { return }
          entered.append(list)
          thread.then(
            list.triggers.flatMap { deliver(to: $0) } + [.init { list.gate.pointee.leave() }])
        })
      return thread
    }

    /// The steps of one trigger's delivery: check, then call (begin and end of its handler,
    /// for the trigger that is cancelled).
    func deliver(to trigger: Trigger) -> [SimulatedThread.Step] {
      var active = false
      let id = ObjectIdentifier(trigger)
      // The other trigger's delivery touches nothing the invariants look at.
      guard trigger === cancelled else { return [] }
      return [
        .init { active = trigger.isActive },
        .init { [self] in
          guard active else { return }
          if cancelReturned { violation = "a handler was called after invalidate() returned" }
          inHandler[id, default: 0] += 1
        },
        .init { [self] in if active { inHandler[id, default: 0] -= 1 } },
      ]
    }

    /// An invalidation of `trigger`: removes it, then waits for the lists that hold it.
    func cancel(_ trigger: Trigger, _ name: String) -> SimulatedThread {
      var held: [ObserverList] = []
      return SimulatedThread(
        name,
        [
          .init { held = trigger.detach().lists },
          .init(canRun: { held.allSatisfy { $0.gate.pointee.isIdle } }) { [self] in
            context.waitUntilDelivered(held)
            guard trigger === cancelled else { return }
            if inHandler[ObjectIdentifier(trigger), default: 0] > 0 {
              violation = "invalidate() returned while its handler ran"
            }
            cancelReturned = true
          },
        ])
    }

    func run(_ threads: [SimulatedThread]) -> [InterleavingExplorer.Caller] {
      self.threads = threads
      return threads.map(\.caller)
    }

    /// At the end: every list entered was left, and the cancelled trigger is in none.
    var atEnd: String? {
      if let violation { return violation }
      if let busy = entered.first(where: { !$0.gate.pointee.isIdle }) {
        return "a list is still entered: \(busy.triggers.count) triggers"
      }
      if context.currentList(key: 0)?.contains(cancelled) == true { return "still registered" }
      return nil
    }
  }

  static func explore(_ scenario: @escaping (World) -> [SimulatedThread])
    -> InterleavingExplorer
    .Report
  {
    InterleavingExplorer.explore(
      limit: 50_000,
      setUp: { () -> (World, [InterleavingExplorer.Caller]) in
        let world = World()
        return (world, world.run(scenario(world)))
      },
      invariant: { $0.violation },
      atEnd: { $0.atEnd })
  }

  @Test("two sets and an invalidation: nothing is delivered after invalidate() returns")
  func twoSetsAndACancel() {
    let report = Self.explore { world in
      [world.set("set 1"), world.set("set 2"), world.cancel(world.cancelled, "invalidate")]
    }
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 2240)
    #expect(!report.truncated)
  }

  @Test("a set, and both observers invalidated at once")
  func twoCancels() {
    let report = Self.explore { world in
      [
        world.set("set"), world.cancel(world.cancelled, "invalidate"),
        world.cancel(world.other, "invalidate other"),
      ]
    }
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 136)
    #expect(!report.truncated)
  }

  @Test("a set, an invalidation, a registration and the object's end")
  func setCancelAddAndEnd() {
    let report = Self.explore { world in
      let added = World.trigger(world.context, options: .takesChangesInFlight)
      return [
        world.set("set"), world.cancel(world.cancelled, "invalidate"),
        SimulatedThread("add", [.init { _ = world.context.add(added) }]),
        SimulatedThread("deinit", [.init { world.context.tearDown() }]),
      ]
    }
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 393)
    #expect(!report.truncated)
  }
}
