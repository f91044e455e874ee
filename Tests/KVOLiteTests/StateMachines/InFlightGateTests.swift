import KVOLiteLocking
import KVOLiteTestSupport
import Synchronization
import Testing

/// The in-flight gate, KVOLite's one wait: every state (open or closed, with nobody or someone
/// inside) under every event, then every interleaving of callers entering while another closes.
@Suite("In-flight gate")
struct InFlightGateTests {
  /// A gate in one of its four states.
  enum Start: CaseIterable {
    case openIdle, openBusy, closedIdle, closedBusy

    func make() -> InFlightGate {
      let gate = InFlightGate()
      if self == .openBusy || self == .closedBusy {
        let entered = gate.enter()
        #expect(entered)
      }
      if self == .closedIdle || self == .closedBusy { gate.close() }
      return gate
    }

    var isClosed: Bool { self == .closedIdle || self == .closedBusy }
    var isBusy: Bool { self == .openBusy || self == .closedBusy }
  }

  @Test(
    "enter: counted in while open, refused (counting nothing) once closed",
    arguments: Start.allCases)
  func enter(_ start: Start) {
    let gate = start.make()
    let entered = gate.enter()
    let (isIdle, isClosed) = (gate.isIdle, gate.isClosed)
    #expect(entered == !start.isClosed)
    #expect(isIdle == (start.isClosed && !start.isBusy))
    #expect(isClosed == start.isClosed)
  }

  @Test(
    "leave: the last one out leaves the gate idle, open or closed",
    arguments: [Start.openBusy, .closedBusy])
  func leave(_ start: Start) {
    let gate = start.make()
    gate.leave()
    let (isIdle, isClosed) = (gate.isIdle, gate.isClosed)
    #expect(isIdle)
    #expect(isClosed == start.isClosed)
  }

  @Test("close: closed for good, whoever is inside stays counted", arguments: Start.allCases)
  func close(_ start: Start) {
    let gate = start.make()
    gate.close()
    let (isIdle, isClosed) = (gate.isIdle, gate.isClosed)
    let entered = gate.enter()
    #expect(isClosed)
    #expect(isIdle == !start.isBusy)
    #expect(!entered)
  }

  @Test(
    "closeAndWait on an idle gate closes it and returns at once, having waited for nobody",
    arguments: [Start.openIdle, .closedIdle])
  func closeAndWaitIdle(_ start: Start) {
    let gate = start.make()
    let waited = gate.closeAndWait()
    let (isIdle, isClosed) = (gate.isIdle, gate.isClosed)
    #expect(waited)
    #expect(isClosed && isIdle)
  }

  @Test(
    "closeAndWait inside a delivery closes the gate and does not wait for whoever is inside",
    arguments: [Start.openBusy, .closedBusy])
  func closeAndWaitInsideADelivery(_ start: Start) {
    let gate = start.make()
    let waited = DeliveryScope.run { gate.closeAndWait() }
    let (isIdle, isClosed) = (gate.isIdle, gate.isClosed)
    #expect(!waited)
    #expect(isClosed && !isIdle)
  }

  #if DEBUG
    /// Two callers each entering, using and leaving, while a third closes and waits, on the
    /// shipped gate (its steps and its wait are schedule points): nobody uses what the gate
    /// guards after the wait returned, and the count is back to zero.
    @Test("interleavings: nothing is used after close-and-wait returns")
    func interleavings() {
      final class World: @unchecked Sendable {
        let gate = InFlightGate()
        let returned = Atomic<Bool>(false)
        let usedAfterReturn = Atomic<Bool>(false)
      }
      let report = ThreadScheduler.explore(
        setUp: { () -> (World, [ThreadScheduler.Caller]) in
          let world = World()
          func user(_ name: String) -> ThreadScheduler.Caller {
            .init(name) {
              guard world.gate.enter() else { return }
              // A use: a step of its own, so that the closer may return in between.
              Scheduling.reach(.step("use"))
              if world.returned.load(ordering: .relaxed) {
                world.usedAfterReturn.store(true, ordering: .relaxed)
              }
              world.gate.leave()
            }
          }
          let closer = ThreadScheduler.Caller("closer") {
            world.gate.closeAndWait()
            world.returned.store(true, ordering: .relaxed)
          }
          return (world, [user("a"), user("b"), closer])
        },
        invariant: {
          $0.usedAfterReturn.load(ordering: .relaxed) ? "used after closeAndWait returned" : nil
        },
        atEnd: { $0.gate.isIdle && $0.gate.isClosed ? nil : "the gate is not idle and closed" })
      #expect(report.failure == nil, "\(report)")
      #expect(report.interleavings == 108)
    }
  #endif
}
