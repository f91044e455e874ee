import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// A subject's conduit's state machine, without threads: each state (handing over, with and
/// without a completion held; live with and without demand, with and without the current
/// value; ended) under each event, the next state and the action.
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

  static func handingOver(_ demand: Subscribers.Demand, held: Bool = false) -> Machine {
    var machine = Machine()
    machine.state = .handingOver(demand: demand, hasCurrentValue: false, completionHeld: held)
    return machine
  }

  @Test("a new conduit is handing over, without demand or the current value")
  func initial() {
    #expect(
      Machine().state == .handingOver(demand: .none, hasCurrentValue: false, completionHeld: false))
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

  @Test(
    "handing over: offers, requests and the current value as live (the subscriber's own thread); the end of the handover makes it live"
  )
  func handingOver() {
    var machine = Self.handingOver(.none)
    #expect(machine.request(.max(2), hasValue: true) == .offerCurrentValue)
    #expect(machine.takeCurrentValue() == .deliver)
    #expect(machine.offer(ignoringDemand: false) == .deliver)
    #expect(machine.offer(ignoringDemand: false) == .none)
    machine.delivered(answering: .max(1))
    #expect(
      machine.state == .handingOver(demand: .max(1), hasCurrentValue: false, completionHeld: false))
    #expect(machine.endHandOver() == .none)
    #expect(machine.state == .live(demand: .max(1), hasCurrentValue: false))
    #expect(
      machine.endHandOver() == .none
        && machine.state == .live(demand: .max(1), hasCurrentValue: false))
  }

  @Test(
    "a completion while handing over is held; the end of the handover delivers it and ends"
  )
  func heldCompletion() {
    var machine = Self.handingOver(.max(3))
    #expect(machine.finish() == .hold)
    #expect(
      machine.state == .handingOver(demand: .max(3), hasCurrentValue: false, completionHeld: true))
    #expect(machine.finish() == .none)
    #expect(machine.offer(ignoringDemand: false) == .none)
    #expect(machine.offer(ignoringDemand: true) == .none)
    #expect(machine.request(.max(1), hasValue: true) == .none)
    #expect(machine.takeCurrentValue() == .none)
    machine.delivered(answering: .max(1))
    #expect(
      machine.state == .handingOver(demand: .max(4), hasCurrentValue: false, completionHeld: true))
    #expect(machine.endHandOver() == .end)
    #expect(machine.state == .ended(demand: .max(4)))
    #expect(machine.endHandOver() == .none && machine.cancel() == .none)
  }

  @Test(
    "a cancel while handing over ends the conduit, dropping a completion held: the end of the handover then delivers nothing"
  )
  func cancelWhileHandingOver() {
    for held in [false, true] {
      var machine = Self.handingOver(.max(1), held: held)
      #expect(machine.cancel() == .end)
      #expect(machine.state == .ended(demand: .max(1)))
      #expect(machine.finish() == .none)
      #expect(machine.endHandOver() == .none)
      #expect(machine.offer(ignoringDemand: true) == .none)
    }
  }

  @Test("live and ended: the end of the handover changes nothing")
  func endHandOverOutsideTheHandover() {
    var live = Self.live(.max(2), hasCurrentValue: true)
    #expect(
      live.endHandOver() == .none && live.state == .live(demand: .max(2), hasCurrentValue: true))
    var ended = Self.ended
    #expect(ended.endHandOver() == .none && ended.state == .ended(demand: .max(3)))
  }
}
