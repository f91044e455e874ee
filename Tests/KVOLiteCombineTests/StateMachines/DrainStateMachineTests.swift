import KVOLiteLocking
import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// A serial drain's state machine, without threads: each phase (idle, draining, draining
/// nested, ended), with the front place filled or not, under each event (reserve, fill,
/// append, delivered, end), the next phase and what the owner does.
@Suite("State machines: serial drain")
struct DrainStateMachineTests {
  typealias Machine = DrainStateMachine<String>
  static let me = ThreadIdentity(address: 1)
  static let other = ThreadIdentity(address: 2)

  static func describe(_ next: Machine.Next) -> String {
    switch next {
    case .run(let action): "run(\(action))"
    case .none: "none"
    case .discard(let action): "discard(\(action))"
    }
  }

  /// Idle, with two places taken and neither filled.
  static func idleWaiting() -> (Machine, Machine.Ticket, Machine.Ticket) {
    var machine = Machine()
    let first = machine.reserve()
    let second = machine.reserve()
    return (machine, first, second)
  }

  /// Draining by `me` (inside the run of "a"), with one place taken behind, not filled.
  static func draining() -> (Machine, Machine.Ticket) {
    var machine = Machine()
    #expect(describe(machine.append("a", by: me)) == "run(a)")
    let place = machine.reserve()
    return (machine, place)
  }

  @Test("reserve: places are taken in order, in every phase but ended, where none is kept")
  func reserve() {
    var (machine, first, second) = Self.idleWaiting()
    #expect(first.number == 0 && second.number == 1 && machine.count == 2)
    #expect(machine.phase == .idle && !machine.frontIsFilled)
    var (draining, place) = Self.draining()
    #expect(place.number == 1 && draining.count == 1)
    #expect(draining.reserve().number == 2)
    _ = machine.end()
    let late = machine.reserve()
    #expect(late.number == 2 && machine.count == 0 && machine.phase == .ended)
    #expect(Self.describe(machine.fill(late, with: "late", by: Self.me)) == "discard(late)")
  }

  @Test(
    "fill, idle: the front runs at once on the filling thread; a place behind an empty front waits")
  func fillIdle() {
    var (machine, first, second) = Self.idleWaiting()
    #expect(Self.describe(machine.fill(second, with: "b", by: Self.other)) == "none")
    #expect(machine.phase == .idle && machine.count == 2)
    #expect(Self.describe(machine.fill(first, with: "a", by: Self.me)) == "run(a)")
    #expect(machine.phase == .draining(Self.me, depth: 1))
    #expect(Self.describe(machine.delivered(by: Self.me)) == "run(b)")
    #expect(Self.describe(machine.delivered(by: Self.me)) == "none")
    #expect(machine.phase == .idle && machine.count == 0)
  }

  @Test("fill, draining: another thread leaves its action to the drainer, which runs it next")
  func fillWhileDraining() {
    var (machine, place) = Self.draining()
    #expect(Self.describe(machine.fill(place, with: "b", by: Self.other)) == "none")
    #expect(machine.phase == .draining(Self.me, depth: 1) && machine.frontIsFilled)
    #expect(Self.describe(machine.append("c", by: Self.other)) == "none")
    #expect(Self.describe(machine.delivered(by: Self.me)) == "run(b)")
    #expect(Self.describe(machine.delivered(by: Self.me)) == "run(c)")
    #expect(Self.describe(machine.delivered(by: Self.me)) == "none")
    #expect(machine.phase == .idle)
  }

  @Test(
    "fill, draining, by the drainer (a scheduler that runs at once): the front runs nested, then the drain goes back out"
  )
  func fillNested() {
    var (machine, place) = Self.draining()
    #expect(Self.describe(machine.fill(place, with: "b", by: Self.me)) == "run(b)")
    #expect(machine.phase == .draining(Self.me, depth: 2))
    let behind = machine.reserve()
    #expect(Self.describe(machine.delivered(by: Self.me)) == "none")
    #expect(machine.phase == .draining(Self.me, depth: 1))
    #expect(Self.describe(machine.fill(behind, with: "c", by: Self.other)) == "none")
    #expect(Self.describe(machine.delivered(by: Self.me)) == "run(c)")
    #expect(Self.describe(machine.delivered(by: Self.me)) == "none")
    #expect(machine.phase == .idle)
  }

  @Test("fill, draining, by the drainer, behind an empty front: it waits")
  func fillNestedBehindEmptyFront() {
    var (machine, front) = Self.draining()
    let behind = machine.reserve()
    #expect(Self.describe(machine.fill(behind, with: "c", by: Self.me)) == "none")
    #expect(machine.phase == .draining(Self.me, depth: 1))
    #expect(Self.describe(machine.fill(front, with: "b", by: Self.other)) == "none")
    #expect(Self.describe(machine.delivered(by: Self.me)) == "run(b)")
    #expect(Self.describe(machine.delivered(by: Self.me)) == "run(c)")
  }

  @Test("end: what waits is dropped, later fills are discarded, a drainer stops after its action")
  func end() {
    var (machine, place) = Self.draining()
    #expect(Self.describe(machine.append("c", by: Self.other)) == "none")
    #expect(machine.end() == ["c"])
    #expect(machine.phase == .ended && machine.count == 0)
    #expect(Self.describe(machine.fill(place, with: "b", by: Self.other)) == "discard(b)")
    #expect(Self.describe(machine.append("d", by: Self.me)) == "discard(d)")
    #expect(Self.describe(machine.delivered(by: Self.me)) == "none")
    #expect(machine.end() == [] && machine.phase == .ended)
    var (idle, _, second) = Self.idleWaiting()
    _ = idle.fill(second, with: "b", by: Self.me)
    #expect(idle.end() == ["b"] && idle.phase == .ended)
  }

  @Test("a long line: places far from the front are filled and run in order")
  func longLine() {
    var machine = Machine()
    let places = (0..<100).map { _ in machine.reserve() }
    for (index, place) in places.enumerated().reversed().dropLast() {
      #expect(Self.describe(machine.fill(place, with: "\(index)", by: Self.other)) == "none")
    }
    var ran = [Self.describe(machine.fill(places[0], with: "0", by: Self.me))]
    while case .run(let action) = machine.delivered(by: Self.me) { ran.append("run(\(action))") }
    #expect(ran == (0..<100).map { "run(\($0))" })
    #expect(machine.phase == .idle && machine.count == 0)
  }
}
