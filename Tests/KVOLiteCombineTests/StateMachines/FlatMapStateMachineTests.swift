import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// `flatMap`'s state machine, without threads: each phase (live, with and without demand;
/// ended) under each event, the next state and the action.
@Suite("State machines: flatMap")
struct FlatMapStateMachineTests {
  typealias Machine = FlatMapStateMachine<Int, TestError>
  typealias Named = SwitchToLatestStateMachineTests.Named

  static func describe(_ action: Machine.Action) -> String {
    switch action {
    case .none: "none"
    case .cancel(let subscription): "cancel(\(subscription))"
    case .request(let subscription, let demand): "request(\(subscription), \(demand))"
    case .makeChild: "makeChild"
    case .deliverHeld: "deliverHeld"
    case .deliverAllHeld(let children):
      "deliverAllHeld(thenRequestUnlimited: \(children.map { "\($0)" }.sorted()))"
    case .complete(let completion, let cancelling, let afterUpstreamFailed, let dropped):
      "complete(\(completion), cancelling: \(cancelling.map { "\($0)" }.sorted()), afterUpstreamFailed: \(afterUpstreamFailed), dropped: \(dropped))"
    case .end(let cancelling, let dropped):
      "end(cancelling: \(cancelling.map { "\($0)" }.sorted()), dropped: \(dropped))"
    }
  }

  static func describe(_ step: Machine.HeldStep) -> String {
    switch step {
    case .deliver(let value, let child): "deliver(\(value), child: \(child.map { "\($0)" } ?? "-"))"
    case .done: "done"
    }
  }

  /// A live machine (at most 2 publishers) subscribed to "up", with children 0 ("c0") and 1
  /// ("c1") subscribed, and `demand`.
  static func live(demand: Subscribers.Demand = .none) -> Machine {
    var machine = Machine(maxPublishers: .max(2))
    _ = machine.receiveOuter(Named("up"))
    for index in 0..<2 {
      #expect(machine.childMade() == index)
      _ = machine.receiveChild(Named("c\(index)"), index: index)
    }
    if demand > 0 { _ = machine.request(demand) }
    return machine
  }

  static var ended: Machine {
    var machine = live()
    _ = machine.cancel()
    return machine
  }

  @Test(
    "upstream: its subscription taken once and asked for maxPublishers; its values make children while live"
  )
  func upstream() {
    var machine = Machine(maxPublishers: .max(2))
    #expect(Self.describe(machine.receiveOuter(Named("up"))) == "request(up, max(2))")
    #expect(Self.describe(machine.receiveOuter(Named("again"))) == "cancel(again)")
    #expect(Self.describe(machine.receiveOuterValue()) == "makeChild")
    #expect(machine.childMade() == 0 && machine.pendingChildren == 1)
    var ended = Self.ended
    #expect(Self.describe(ended.receiveOuterValue()) == "none")
    #expect(Self.describe(ended.receiveOuter(Named("late"))) == "cancel(late)")
  }

  @Test(
    "a child's subscription: kept and asked for one (or everything) while live; cancelled once ended"
  )
  func childSubscription() {
    var machine = Self.live()
    #expect(machine.children.count == 2 && machine.pendingChildren == 0)
    _ = machine.childMade()
    _ = machine.request(.unlimited)
    #expect(Self.describe(machine.receiveChild(Named("c2"), index: 2)) == "request(c2, unlimited)")
    var ended = Self.ended
    _ = ended.childMade()
    #expect(Self.describe(ended.receiveChild(Named("c9"), index: 9)) == "cancel(c9)")
    #expect(ended.pendingChildren == 0)
  }

  @Test("a child's value: delivered within the demand, held without it, in any phase")
  func childValue() {
    var machine = Self.live(demand: .max(1))
    #expect(machine.receiveChild(5, index: 0) == .deliver && machine.demand == .none)
    machine.delivered(answering: .max(1))
    #expect(machine.demand == .max(1))
    var empty = Self.live()
    #expect(empty.receiveChild(6, index: 1) == .hold && empty.held.count == 1)
    var unlimited = Self.live(demand: .unlimited)
    #expect(unlimited.receiveChild(7, index: 0) == .deliverUnlimited)
    var ended = Self.ended
    #expect(ended.receiveChild(8, index: 0) == .hold && ended.held.count == 1)
  }

  @Test(
    "requests: a finite one delivers the values held, one at a time, asking each sender for one more; while a sender is asked, its values are held; an unlimited one delivers them all"
  )
  func requests() {
    var machine = Self.live()
    _ = machine.receiveChild(1, index: 0)
    _ = machine.receiveChild(2, index: 1)
    #expect(Self.describe(machine.request(.max(1))) == "deliverHeld")
    #expect(Self.describe(machine.nextHeld()) == "deliver(1, child: c0)")
    #expect(Self.describe(machine.nextHeld()) == "done")
    machine.deliveredHeld(answering: .max(1))
    #expect(machine.receiveChild(3, index: 0) == .hold)  // sent while c0 is asked
    machine.askedChild()
    #expect(Self.describe(machine.nextHeld()) == "deliver(2, child: c1)")
    machine.enterDownstream()
    #expect(Self.describe(machine.request(.max(4))) == "none")
    machine.leaveDownstream()
    #expect(machine.demand == .max(4))
    let early = machine.takeHeld()
    #expect(early == nil)  // only with unlimited demand
    #expect(
      Self.describe(machine.request(.unlimited))
        == "deliverAllHeld(thenRequestUnlimited: [\"c0\", \"c1\"])")
    let (first, second) = (machine.takeHeld(), machine.takeHeld())
    #expect(first == 3 && second == nil)
    #expect(machine.held.isEmpty && machine.demand == .unlimited)
    var ended = Self.ended
    #expect(Self.describe(ended.request(.max(1))) == "none")
  }

  @Test(
    "upstream completes: a finish ends once nothing is left; a failure ends at once, cancelling the children"
  )
  func upstreamCompletion() {
    var machine = Self.live()
    #expect(Self.describe(machine.receiveOuter(.finished)) == "none")
    #expect(machine.outer == nil && machine.outerFinished)
    #expect(Self.describe(machine.receiveChild(.finished, index: 0)) == "none")
    #expect(
      Self.describe(machine.receiveChild(.finished, index: 1))
        == "complete(finished, cancelling: [], afterUpstreamFailed: false, dropped: [])")
    #expect(machine.phase == .ended)
    var failing = Self.live()
    _ = failing.receiveChild(4, index: 0)
    #expect(
      Self.describe(failing.receiveOuter(.failure(TestError())))
        == "complete(failure(oops), cancelling: [\"c0\", \"c1\"], afterUpstreamFailed: true, dropped: [4])"
    )
    var ended = Self.ended
    #expect(Self.describe(ended.receiveOuter(.failure(TestError()))) == "none")
  }

  @Test(
    "a child completes: a finish asks upstream for one more; a failure ends, cancelling the others")
  func childCompletion() {
    var machine = Self.live()
    #expect(Self.describe(machine.receiveChild(.finished, index: 0)) == "request(up, max(1))")
    #expect(machine.children.count == 1)
    #expect(
      Self.describe(machine.receiveChild(.failure(TestError()), index: 1))
        == "complete(failure(oops), cancelling: [], afterUpstreamFailed: false, dropped: [])")
    var other = Self.live()
    #expect(
      Self.describe(other.receiveChild(.failure(TestError()), index: 0))
        == "complete(failure(oops), cancelling: [\"c1\"], afterUpstreamFailed: false, dropped: [])")
    #expect(Self.describe(other.receiveChild(.failure(TestError()), index: 1)) == "none")
    var unlimited = Machine(maxPublishers: .unlimited)
    _ = unlimited.receiveOuter(Named("up"))
    _ = unlimited.childMade()
    _ = unlimited.receiveChild(Named("c0"), index: 0)
    #expect(Self.describe(unlimited.receiveChild(.finished, index: 0)) == "none")
  }

  @Test(
    "cancel: ends from live, cancelling every child and upstream, dropping what is held; ended ignores it"
  )
  func cancel() {
    var machine = Self.live()
    _ = machine.receiveChild(9, index: 1)
    #expect(
      Self.describe(machine.cancel()) == "end(cancelling: [\"c0\", \"c1\", \"up\"], dropped: [9])")
    #expect(machine.phase == .ended && machine.held.isEmpty)
    #expect(Self.describe(machine.cancel()) == "none")
  }
}
