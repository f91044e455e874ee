import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// A subject's conduit's state machine, without threads: each state (live with and without
/// demand, with and without the current value; ended) under each event, the next state and
/// the action.
@Suite("State machines: subject conduit")
struct SubjectConduitStateMachineTests {
  typealias Machine = SubjectConduitStateMachine

  static func live(_ demand: Subscribers.Demand, hasCurrentValue: Bool = false) -> Machine {
    var machine = Machine()
    machine.state = .live(demand: demand, hasCurrentValue: hasCurrentValue)
    return machine
  }

  static var ended: Machine {
    var machine = Machine()
    machine.state = .ended(demand: .max(3))
    return machine
  }

  @Test("a new conduit is live, without demand or the current value")
  func initial() {
    #expect(Machine().state == .live(demand: .none, hasCurrentValue: false))
  }

  @Test(
    "offer: demand goes down by one and the value goes out; without demand it waits for the next request; ended ignores it"
  )
  func offer() {
    var machine = Self.live(.max(2))
    #expect(machine.offer(ignoringDemand: false) == .deliver)
    #expect(machine.state == .live(demand: .max(1), hasCurrentValue: true))
    var empty = Self.live(.none, hasCurrentValue: true)
    #expect(empty.offer(ignoringDemand: false) == .none)
    #expect(empty.state == .live(demand: .none, hasCurrentValue: false))
    var unlimited = Self.live(.unlimited)
    #expect(unlimited.offer(ignoringDemand: false) == .deliver)
    #expect(unlimited.state == .live(demand: .unlimited, hasCurrentValue: true))
    var ignoring = Self.live(.none)
    #expect(ignoring.offer(ignoringDemand: true) == .deliver)
    #expect(ignoring.state == .live(demand: .none, hasCurrentValue: true))
    var ended = Self.ended
    #expect(
      ended.offer(ignoringDemand: false) == .none && ended.offer(ignoringDemand: true) == .none)
    #expect(ended.state == .ended(demand: .max(3)))
  }

  @Test("delivered: the answer adds to the demand while live")
  func delivered() {
    var machine = Self.live(.max(1), hasCurrentValue: true)
    machine.delivered(answering: .max(2))
    machine.delivered(answering: .none)
    #expect(machine.state == .live(demand: .max(3), hasCurrentValue: true))
    var ended = Self.ended
    ended.delivered(answering: .max(2))
    #expect(ended.state == .ended(demand: .max(3)))
  }

  @Test(
    "request: adds to the demand; offers the current value it has not had, or acknowledges; ended ignores it"
  )
  func request() {
    var first = Self.live(.none)
    #expect(first.request(.max(1), hasValue: true) == .offerCurrentValue)
    #expect(first.state == .live(demand: .max(1), hasCurrentValue: false))
    var had = Self.live(.max(1), hasCurrentValue: true)
    #expect(had.request(.max(2), hasValue: true) == .acknowledgeDemand)
    #expect(had.state == .live(demand: .max(3), hasCurrentValue: true))
    var passthrough = Self.live(.none)
    #expect(passthrough.request(.unlimited, hasValue: false) == .acknowledgeDemand)
    #expect(passthrough.state == .live(demand: .unlimited, hasCurrentValue: false))
    var ended = Self.ended
    #expect(
      ended.request(.max(1), hasValue: true) == .none && ended.state == .ended(demand: .max(3)))
  }

  @Test("takeCurrentValue: goes out once, with demand, unless already had or ended")
  func takeCurrentValue() {
    var machine = Self.live(.max(2))
    #expect(machine.takeCurrentValue() == .deliver)
    #expect(machine.state == .live(demand: .max(1), hasCurrentValue: true))
    #expect(machine.takeCurrentValue() == .none)
    var noDemand = Self.live(.none)
    #expect(noDemand.takeCurrentValue() == .none)
    #expect(noDemand.state == .live(demand: .none, hasCurrentValue: false))
    var ended = Self.ended
    #expect(ended.takeCurrentValue() == .none)
  }

  @Test("finish and cancel: live -> ended, once, keeping the demand (the mirror shows it)")
  func endings() {
    for demand in [Subscribers.Demand.none, .max(11), .unlimited] {
      var finished = Self.live(demand, hasCurrentValue: true)
      #expect(finished.finish() == .end && finished.state == .ended(demand: demand))
      #expect(finished.finish() == .none && finished.cancel() == .none)
      var cancelled = Self.live(demand)
      #expect(cancelled.cancel() == .end && cancelled.state == .ended(demand: demand))
      #expect(cancelled.cancel() == .none && cancelled.finish() == .none)
      #expect(cancelled.demand == demand)
    }
  }
}
