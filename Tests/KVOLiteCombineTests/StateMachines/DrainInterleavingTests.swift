import KVOLiteLocking
import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// Every interleaving of the threads of a concurrent scheduler running a subscription's
/// scheduled actions, over its serial drain (``DrainStateMachine``, driven as ``SerialDrain``
/// drives it): each transition under the lock is one step, and each action's run two (its
/// start and its end), so that two runs at once would be seen.
@Suite("State machines: serial drain, every interleaving")
struct DrainInterleavingTests {
  typealias Machine = DrainStateMachine<String>

  /// The drain, and what its actions did.
  final class World {
    var machine = Machine()
    /// The actions that ran, in the order they started.
    var ran: [String] = []
    /// The action running now.
    var running: String?
    /// What broke, first.
    var violation: String?
    /// The actions `end()` dropped or discarded.
    var dropped: [String] = []
    /// Whether `end()` has returned.
    var ended = false
    /// The places, in the order they were taken: the order the actions must run in.
    var order: [String] = []
    /// The simulated threads (their callers refer to them unowned).
    var threads: [SimulatedThread] = []

    func check(_ condition: Bool, _ message: @autoclosure () -> String) {
      if !condition, violation == nil { violation = message() }
    }
  }

  /// A scheduler thread running the action that took `place` (or, with no place, a timer's
  /// action, which takes one as it runs), then draining on as ``SerialDrain`` does.
  static func runner(
    _ world: World, _ name: String, place: Machine.Ticket?, drained: Bool = true
  ) -> SimulatedThread {
    let thread = SimulatedThread(name)
    let me = ThreadIdentity(address: UInt(name.unicodeScalars.first!.value))
    func perform(_ next: Machine.Next) {
      switch next {
      case .run(let action):
        // Decided now, under the lock: never once end() has returned (an action decided
        // before may still start after it, on its thread, as a cancel does not wait).
        world.check(!world.ended, "\(action) was decided after end() returned")
        thread.then(
          .init {
            world.check(world.running == nil, "\(action) ran while \(world.running!) ran")
            world.running = action
            world.ran.append(action)
          },
          .init { world.running = nil },
          .init { perform(world.machine.delivered(by: me)) })
      case .discard(let action): world.dropped.append(action)
      case .none: break
      }
    }
    guard drained else {
      // As Combine does: the action runs where the scheduler runs it.
      perform(.run(name))
      return thread
    }
    thread.then(
      .init {
        if let place {
          perform(world.machine.fill(place, with: name, by: me))
        } else {
          world.order.append(name)
          perform(world.machine.append(name, by: me))
        }
      })
    return thread
  }

  /// A thread that ends the drain (a cancel).
  static func ender(_ world: World) -> SimulatedThread {
    SimulatedThread(
      "end",
      [
        .init { world.dropped += world.machine.end() },
        .init { world.ended = true },
      ])
  }

  /// Explores `scheduled` actions whose places were taken in that order, run by threads of
  /// their own, with `timers` timer actions and, if `ending`, a cancel.
  static func explore(
    scheduled: [String], timers: [String] = [], ending: Bool = false, drained: Bool = true
  ) -> InterleavingExplorer.Report {
    InterleavingExplorer.explore(
      setUp: {
        let world = World()
        let places = scheduled.map { _ in world.machine.reserve() }
        world.order = scheduled
        var threads = zip(scheduled, places).map { name, place in
          runner(world, name, place: place, drained: drained)
        }
        threads += timers.map { runner(world, $0, place: nil) }
        if ending { threads.append(ender(world)) }
        world.threads = threads
        return (world, threads.map(\.caller))
      },
      invariant: { (world: World) in world.violation },
      atEnd: { (world: World) -> String? in
        let everything = world.ran + world.dropped
        if world.ran != world.order.filter(world.ran.contains) {
          return "ran out of order: \(world.ran), places taken \(world.order)"
        }
        if everything.sorted() != world.order.sorted() {
          return "ran \(world.ran) and dropped \(world.dropped) of \(world.order)"
        }
        if drained, !ending, world.machine.phase != .idle {
          return "left \(world.machine.phase)"
        }
        return nil
      })
  }

  @Test("three actions run by three threads: each once, in order, one at a time")
  func threeScheduledActions() {
    let report = Self.explore(scheduled: ["a", "b", "c"])
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 45 && !report.truncated, "\(report)")
  }

  @Test("two scheduled actions and two timers': each timer's runs after the places taken before it")
  func scheduledAndTimers() {
    let report = Self.explore(scheduled: ["a", "b"], timers: ["t", "u"])
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 720 && !report.truncated, "\(report)")
  }

  @Test(
    "three scheduled actions and a cancel: nothing is decided after end() returns, nothing runs twice"
  )
  func scheduledAndEnd() {
    let report = Self.explore(scheduled: ["a", "b", "c"], ending: true)
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 1_515 && !report.truncated, "\(report)")
  }

  @Test(
    "without the drain (each action runs where the scheduler runs it, as in Combine), they overlap")
  func withoutTheDrain() {
    let report = Self.explore(scheduled: ["a", "b"], drained: false)
    #expect(report.failure?.message == "b ran while a ran", "\(report)")
  }
}
