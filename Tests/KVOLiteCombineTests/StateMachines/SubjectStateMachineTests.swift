import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// The subjects' state machine, without threads: each state (active with conduits, completed)
/// under each event, the next state and the action.
@Suite("State machines: subject")
struct SubjectStateMachineTests {
  typealias Machine = SubjectStateMachine<Int, TestError>
  typealias Conduit = SubjectConduitBase<Int, TestError>

  /// An upstream subscription that records what it is asked.
  final class Upstream: Subscription, @unchecked Sendable {
    var calls: [String] = []
    func request(_ demand: Subscribers.Demand) { calls.append("request \(demand)") }
    func cancel() { calls.append("cancel") }
  }

  /// A machine of `kind` with `count` conduits listed, and the conduits.
  static func active(_ kind: SubjectKind = .passthrough, conduits count: Int = 3) -> (
    Machine, [Conduit]
  ) {
    var machine = Machine(kind: kind, current: kind.hasValue ? 0 : nil)
    let conduits = (0..<count).map { _ in Conduit() }
    for conduit in conduits { #expect(describe(machine.subscribe(conduit)) == "handOver") }
    return (machine, conduits)
  }

  /// A completed machine.
  static func completed(_ kind: SubjectKind = .passthrough) -> Machine {
    var (machine, _) = active(kind, conduits: 1)
    _ = machine.complete(.finished)
    return machine
  }

  /// The conduits of a list, by their index in `conduits` (`-` for an empty slot).
  static func describe(_ list: ContiguousArray<Conduit?>, _ conduits: [Conduit]) -> [String] {
    list.map { slot in
      guard let slot else { return "-" }
      return conduits.firstIndex { $0 === slot }.map(String.init) ?? "?"
    }
  }

  static func describe(_ action: Machine.SubscribeAction) -> String {
    switch action {
    case .handOver: "handOver"
    case .completeAtOnce(let completion): "completeAtOnce(\(completion))"
    }
  }

  static func describe(_ state: Machine.State) -> String {
    switch state {
    case .active: "active"
    case .completed(let completion): "completed(\(completion))"
    }
  }

  @Test(
    "subscribe: active lists the conduit at the next position and hands over; completed completes at once"
  )
  func subscribe() {
    var (machine, conduits) = Self.active(conduits: 2)
    let third = Conduit()
    #expect(Self.describe(machine.subscribe(third)) == "handOver")
    #expect(Self.describe(machine.conduits, conduits + [third]) == ["0", "1", "2"])
    #expect(third.position == 2 && Self.describe(machine.state) == "active")

    var done = Self.completed()
    let late = Conduit()
    #expect(Self.describe(done.subscribe(late)) == "completeAtOnce(finished)")
    #expect(done.conduits.isEmpty && Self.describe(done.state) == "completed(finished)")
  }

  @Test(
    "send: active offers to the list (a current-value subject stores first); completed does nothing"
  )
  func send() {
    for kind in [SubjectKind.passthrough, .currentValue, .published, .ignoresDemand] {
      var (machine, conduits) = Self.active(kind)
      guard case .offer(let targets) = machine.send(7) else {
        Issue.record("no offer for \(kind)")
        continue
      }
      #expect(Self.describe(targets, conduits) == ["0", "1", "2"])
      #expect(machine.current == (kind == .currentValue ? 7 : kind.hasValue ? 0 : nil))
      var done = Self.completed(kind)
      guard case .none = done.send(8) else {
        Issue.record("an offer after completion for \(kind)")
        continue
      }
      #expect(done.current == (kind.hasValue ? 0 : nil))
    }
  }

  @Test("store: sets the current value in either state")
  func store() {
    var (machine, _) = Self.active(.published)
    machine.store(3)
    var done = Self.completed(.currentValue)
    done.store(4)
    #expect(machine.current == 3 && done.current == 4)
  }

  @Test("complete: active -> completed, finishing every listed conduit; completed does nothing")
  func complete() {
    var (machine, conduits) = Self.active()
    machine.remove(conduits[1])
    guard case .finish(let targets, let completion) = machine.complete(.failure(TestError()))
    else {
      Issue.record("no finish")
      return
    }
    #expect(Self.describe(targets, conduits) == ["0", "-", "2"])
    #expect("\(completion)" == "failure(oops)")
    #expect(Self.describe(machine.state) == "completed(failure(oops))")
    #expect(machine.conduits.isEmpty && machine.emptySlots == 0)
    guard case .none = machine.complete(.finished) else {
      Issue.record("completed twice")
      return
    }
    #expect(Self.describe(machine.state) == "completed(failure(oops))")
  }

  @Test(
    "remove: active empties the slot (compacting once half is empty); completed, or a stranger, changes nothing"
  )
  func remove() {
    var (machine, conduits) = Self.active(conduits: 20)
    for index in [3, 0, 3] { machine.remove(conduits[index]) }
    #expect(machine.emptySlots == 2)
    #expect(Self.describe(machine.conduits, conduits).prefix(5) == ["-", "1", "2", "-", "4"])
    machine.remove(Conduit())
    #expect(machine.emptySlots == 2)
    for index in 4..<12 { machine.remove(conduits[index]) }
    #expect(machine.emptySlots == 10)  // half: not yet
    machine.remove(conduits[12])
    // 11 of 20 empty: compacted, the positions renumbered.
    #expect(machine.emptySlots == 0)
    #expect(Self.describe(machine.conduits, conduits) == ["1", "2"] + (13..<20).map(String.init))
    #expect(machine.conduits.enumerated().allSatisfy { $0.element?.position == $0.offset })
    var done = Self.completed()
    done.remove(conduits[1])
    #expect(done.conduits.isEmpty && Self.describe(done.state) == "completed(finished)")
  }

  /// What an upstream action asks of `upstreams`, as their calls.
  static func perform(_ action: Machine.UpstreamAction) -> String {
    switch action {
    case .requestUnlimited(let list): "request \(list.count)"
    case .cancel(let list): "cancel \(list.count)"
    case .none: "none"
    }
  }

  @Test(
    "upstreams: a passthrough subject asks them once a subscriber has; the others at once; release cancels them"
  )
  func upstreams() {
    for completed in [false, true] {
      var passthrough = completed ? Self.completed() : Self.active().0
      #expect(Self.perform(passthrough.receive(upstream: Upstream())) == "none")
      #expect(Self.perform(passthrough.acknowledgeDemand()) == "request 1")
      #expect(Self.perform(passthrough.acknowledgeDemand()) == "none")
      #expect(Self.perform(passthrough.receive(upstream: Upstream())) == "request 1")
      #expect(Self.perform(passthrough.release()) == "cancel 2")
      #expect(Self.perform(passthrough.release()) == "cancel 0")
      var current = completed ? Self.completed(.currentValue) : Self.active(.currentValue).0
      #expect(Self.perform(current.receive(upstream: Upstream())) == "request 1")
      #expect(Self.perform(current.acknowledgeDemand()) == "none")
    }
  }
}
