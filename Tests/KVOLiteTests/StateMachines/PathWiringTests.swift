import KVOLiteTestSupport
import Testing

@testable import KVOLite

/// The state machine of a path observation's links, without threads: re-wirings ordered by
/// their generations, links set and handed back, and the end.
@Suite("Path wiring state machine")
struct PathWiringTests {
  /// The states: nothing begun, a re-wiring begun, one placed, a later one placed first, ended.
  enum Start: String, CaseIterable, CustomStringConvertible {
    case fresh, begun, placed, overtaken, ended
    var description: String { rawValue }

    /// The machine, and the generation a re-wiring in progress holds (if any).
    func make() -> (PathWiring, UInt64?) {
      var wiring = PathWiring(lengths: [2])
      switch self {
      case .fresh: return (wiring, nil)
      case .begun: return (wiring, wiring.beginRewire())
      case .placed:
        let generation = wiring.beginRewire()!
        #expect(wiring.beginPlacing(generation) == true)
        return (wiring, nil)
      case .overtaken:
        let first = wiring.beginRewire()!
        let second = wiring.beginRewire()!
        #expect(wiring.beginPlacing(second) == true)
        return (wiring, first)
      case .ended:
        _ = wiring.end()
        return (wiring, nil)
      }
    }
  }

  @Test(
    "beginRewire: each re-wiring a later generation; none once ended", arguments: Start.allCases)
  func beginRewire(_ start: Start) {
    var (wiring, _) = start.make()
    let before = wiring.begun
    let generation = wiring.beginRewire()
    #expect(generation == (start == .ended ? nil : before + 1))
  }

  @Test(
    "beginPlacing: a re-wiring places unless a later one placed or the observation ended",
    arguments: Start.allCases)
  func beginPlacing(_ start: Start) {
    var (wiring, pending) = start.make()
    guard let pending else {
      // Nothing in progress: a generation already placed does not place again.
      #expect(wiring.beginPlacing(wiring.placed) == false)
      return
    }
    #expect(wiring.beginPlacing(pending) == (start == .begun))
    #expect(wiring.placed == (start == .begun ? pending : pending + 1))
  }

  @Test("setLink: a link is set and the one it replaces handed back to detach")
  func setLink() {
    let person = Person()
    let context = person.observationRegistrar.context(of: person)
    func trigger() -> Trigger {
      Trigger(order: 1, context: context, keyIndex: 0, isTyped: false, options: [])
    }
    var wiring = PathWiring(lengths: [2])
    let first = trigger()
    let second = trigger()
    #expect(wiring.setLink((first, ObjectIdentifier(person)), branch: 0, level: 1) == nil)
    #expect(wiring.link(branch: 0, level: 1)?.trigger === first)
    #expect(wiring.setLink((second, ObjectIdentifier(person)), branch: 0, level: 1) === first)
    #expect(wiring.setLink(nil, branch: 0, level: 1) === second)
    #expect(wiring.link(branch: 0, level: 1) == nil)
    // The end hands back the links in place, once.
    _ = wiring.setLink((first, ObjectIdentifier(person)), branch: 0, level: 0)
    #expect(wiring.end()?.count == 1)
    #expect(wiring.link(branch: 0, level: 0) == nil)
    #expect(wiring.end() == nil)
  }

  @Test("end: once; nothing begins or places after", arguments: Start.allCases)
  func end(_ start: Start) {
    var (wiring, pending) = start.make()
    #expect((wiring.end() == nil) == (start == .ended))
    #expect(wiring.isEnded)
    #expect(wiring.beginRewire() == nil)
    if let pending { #expect(wiring.beginPlacing(pending) == false) }
  }
}

/// Every interleaving of two re-wirings after two changes of a relationship, and of the
/// observation's end, on the wiring machine as ``PathObservation`` performs it: a re-wiring
/// takes its generation, reads the relationship (no lock), then places its link if no later
/// generation placed first. Once the changes are done the link sits on the relationship's
/// last object; after the end, no link is placed.
@Suite("Path wiring interleavings")
struct PathWiringInterleavingTests {
  final class World {
    let people = [Person(), Person(), Person()]
    let context: RegistrarContext
    var wiring = PathWiring(lengths: [1])
    /// Which person the relationship leads to.
    var relationship = 0
    var ended = false
    var violation: String?
    var threads: [SimulatedThread] = []

    init() {
      context = people[0].observationRegistrar.context(of: people[0])
    }

    /// A change of the relationship to `target`, then its re-wiring.
    func change(to target: Int, _ name: String) -> SimulatedThread {
      var generation: UInt64?
      var read = 0
      return SimulatedThread(
        name,
        [
          .init { [self] in relationship = target },
          .init { [self] in generation = wiring.beginRewire() },
          .init { [self] in read = relationship },
          .init { [self] in
            guard let generation, wiring.beginPlacing(generation) else { return }
            if ended { violation = "placed a link after the end" }
            let link = Trigger(order: 1, context: context, keyIndex: 0, isTyped: false, options: [])
            _ = wiring.setLink(
              (link, ObjectIdentifier(people[read])), branch: 0, level: 0)
          },
        ])
    }
  }

  static func explore(ends: Bool) -> InterleavingExplorer.Report {
    InterleavingExplorer.explore(
      setUp: { () -> (World, [InterleavingExplorer.Caller]) in
        let world = World()
        world.threads = [world.change(to: 1, "change 1"), world.change(to: 2, "change 2")]
        if ends {
          world.threads.append(
            SimulatedThread(
              "invalidate",
              [
                .init {
                  _ = world.wiring.end()
                  world.ended = true
                }
              ]))
        }
        return (world, world.threads.map(\.caller))
      },
      invariant: { $0.violation },
      atEnd: { world in
        if ends { return world.wiring.link(branch: 0, level: 0) == nil ? nil : "a link is left" }
        let wired = world.wiring.link(branch: 0, level: 0)?.object
        return wired == ObjectIdentifier(world.people[world.relationship])
          ? nil : "wired to a stale object"
      })
  }

  @Test("two changes of a relationship: the last one's object is wired")
  func twoChanges() {
    let report = Self.explore(ends: false)
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 70)
    #expect(!report.truncated)
  }

  @Test("two changes and the end: no link is placed after it")
  func changesAndEnd() {
    let report = Self.explore(ends: true)
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == 630)
    #expect(!report.truncated)
  }
}
