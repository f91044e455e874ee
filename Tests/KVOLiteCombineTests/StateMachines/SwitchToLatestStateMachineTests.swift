import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// `switchToLatest`'s state machine, without threads: each phase (running, upstream finished,
/// completed, closed) under each event, the next phase and the action.
@Suite("State machines: switchToLatest")
struct SwitchToLatestStateMachineTests {
  typealias Machine = SwitchToLatestStateMachine<TestError>

  /// A subscription that names itself.
  final class Named: Subscription, CustomStringConvertible, @unchecked Sendable {
    let description: String
    init(_ name: String) { description = name }
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
  }

  static func describe(_ action: Machine.Action) -> String {
    switch action {
    case .none: "none"
    case .requestUnlimited(let subscription): "requestUnlimited(\(subscription))"
    case .cancel(let subscription): "cancel(\(subscription))"
    case .switchTo(let index, let previous):
      "switchTo(\(index), cancelling: \(previous.map { "\($0)" } ?? "-"))"
    case .request(let subscription, let demand): "request(\(subscription), \(demand))"
    case .deliver: "deliver"
    case .complete(let completion, let cancelling):
      "complete(\(completion), cancelling: \(cancelling.map { "\($0)" }))"
    case .end(let cancelling): "end(cancelling: \(cancelling.map { "\($0)" }))"
    case .trap(let message): "trap(\(message))"
    }
  }

  /// The phases, each with the latest publisher (number 1) subscribed where it can be, and a
  /// demand of 2.
  static func machine(_ phase: Machine.Phase) -> Machine {
    var machine = Machine()
    _ = machine.receiveOuter(Named("outer"))
    _ = machine.request(.max(2))
    _ = machine.receiveOuterValue()
    _ = machine.receiveLatest(Named("latest"), index: 1)
    switch phase {
    case .running: break
    case .upstreamFinished: _ = machine.receiveOuter(.finished)
    case .completed:
      _ = machine.receiveOuter(.finished)
      _ = machine.receiveLatest(.finished, index: 1)
    case .closed: _ = machine.cancel()
    }
    #expect(machine.phase == phase)
    return machine
  }

  static let phases: [Machine.Phase] = [.running, .upstreamFinished, .completed, .closed]

  /// Runs `event` on a machine in each phase: the action and the next phase, per phase.
  static func table(_ event: (inout Machine) -> Machine.Action) -> [String] {
    phases.map { phase in
      var machine = machine(phase)
      let action = describe(event(&machine))
      return "\(phase): \(action) -> \(machine.phase)"
    }
  }

  @Test("a fresh machine takes upstream's subscription once and asks it for everything")
  func outerSubscription() {
    var machine = Machine()
    #expect(Self.describe(machine.receiveOuter(Named("a"))) == "requestUnlimited(a)")
    #expect(Self.describe(machine.receiveOuter(Named("b"))) == "cancel(b)")
    // After upstream's completion lets go of it, another is taken, unless closed.
    #expect(
      Self.table { $0.receiveOuter(Named("x")) } == [
        "running: cancel(x) -> running",
        "upstreamFinished: requestUnlimited(x) -> upstreamFinished",
        "completed: requestUnlimited(x) -> completed", "closed: cancel(x) -> closed",
      ])
  }

  @Test(
    "upstream sends a publisher: running switches to it, cancelling the previous; the others ignore it"
  )
  func outerValue() {
    #expect(
      Self.table { $0.receiveOuterValue() } == [
        "running: switchTo(2, cancelling: latest) -> running",
        "upstreamFinished: none -> upstreamFinished", "completed: none -> completed",
        "closed: none -> closed",
      ])
  }

  @Test("upstream finishes: waits for the latest publisher, or completes when there is none")
  func outerFinished() {
    #expect(
      Self.table { $0.receiveOuter(.finished) } == [
        "running: none -> upstreamFinished", "upstreamFinished: none -> upstreamFinished",
        "completed: complete(finished, cancelling: []) -> completed", "closed: none -> closed",
      ])
    var awaiting = Machine()
    _ = awaiting.receiveOuterValue()
    #expect(Self.describe(awaiting.receiveOuter(.finished)) == "none")
    var empty = Machine()
    #expect(Self.describe(empty.receiveOuter(.finished)) == "complete(finished, cancelling: [])")
    #expect(empty.phase == .completed)
  }

  @Test("upstream fails: completes, cancelling the latest publisher; closed ignores it")
  func outerFailure() {
    #expect(
      Self.table { $0.receiveOuter(.failure(TestError())) } == [
        "running: complete(failure(oops), cancelling: [\"latest\"]) -> completed",
        "upstreamFinished: complete(failure(oops), cancelling: [\"latest\"]) -> completed",
        "completed: complete(failure(oops), cancelling: []) -> completed", "closed: none -> closed",
      ])
  }

  @Test(
    "a request adds to the demand in every phase and reaches the latest publisher's subscription")
  func request() {
    #expect(
      Self.table { $0.request(.max(3)) } == [
        "running: request(latest, max(3)) -> running",
        "upstreamFinished: request(latest, max(3)) -> upstreamFinished",
        "completed: none -> completed", "closed: none -> closed",
      ])
    var machine = Self.machine(.closed)
    _ = machine.request(.max(3))
    #expect(machine.demand == .max(5))
  }

  @Test("cancel: closed from any phase, cancelling the latest publisher and upstream")
  func cancel() {
    #expect(
      Self.table { $0.cancel() } == [
        "running: end(cancelling: [\"latest\", \"outer\"]) -> closed",
        "upstreamFinished: end(cancelling: [\"latest\"]) -> closed",
        "completed: end(cancelling: []) -> closed", "closed: end(cancelling: []) -> closed",
      ])
  }

  @Test(
    "the latest publisher's subscription: taken and asked for the demand; a stale or second one is cancelled"
  )
  func latestSubscription() {
    var machine = Machine()
    _ = machine.receiveOuterValue()
    _ = machine.receiveOuterValue()
    #expect(Self.describe(machine.receiveLatest(Named("old"), index: 1)) == "cancel(old)")
    #expect(Self.describe(machine.receiveLatest(Named("new"), index: 2)) == "none")
    #expect(Self.describe(machine.receiveLatest(Named("again"), index: 2)) == "cancel(again)")
    #expect(
      Self.table { $0.receiveLatest(Named("x"), index: 1) } == [
        "running: cancel(x) -> running", "upstreamFinished: cancel(x) -> upstreamFinished",
        "completed: request(x, max(2)) -> completed", "closed: cancel(x) -> closed",
      ])
  }

  @Test(
    "the latest publisher's value: uses one unit of demand and is delivered, but for closed; none asked traps"
  )
  func latestValue() {
    #expect(
      Self.table { $0.receiveLatestValue(index: 1) } == [
        "running: deliver -> running", "upstreamFinished: deliver -> upstreamFinished",
        "completed: deliver -> completed", "closed: none -> closed",
      ])
    var machine = Self.machine(.running)
    #expect(Self.describe(machine.receiveLatestValue(index: 7)) == "none")
    _ = machine.receiveLatestValue(index: 1)
    machine.delivered(answering: .max(4))
    #expect(machine.demand == .max(5))
    var empty = Machine()
    _ = empty.receiveOuterValue()
    _ = empty.receiveLatest(Named("latest"), index: 1)
    #expect(
      Self.describe(empty.receiveLatestValue(index: 1))
        == "trap(SwitchToLatest received a value that its subscriber did not request)")
  }

  @Test(
    "the latest publisher finishes: completes once upstream has finished; before its subscription, traps"
  )
  func latestFinished() {
    #expect(
      Self.table { $0.receiveLatest(.finished, index: 1) } == [
        "running: none -> running",
        "upstreamFinished: complete(finished, cancelling: []) -> completed",
        "completed: none -> completed", "closed: none -> closed",
      ])
    var awaiting = Machine()
    _ = awaiting.receiveOuterValue()
    #expect(
      Self.describe(awaiting.receiveLatest(.finished, index: 1))
        == "trap(SwitchToLatest received a completion before the subscription)")
  }

  @Test("the latest publisher fails: closed, cancelling upstream, unless already completed")
  func latestFailure() {
    #expect(
      Self.table { $0.receiveLatest(.failure(TestError()), index: 1) } == [
        "running: complete(failure(oops), cancelling: [\"outer\"]) -> closed",
        "upstreamFinished: complete(failure(oops), cancelling: []) -> closed",
        "completed: none -> completed", "closed: none -> closed",
      ])
  }
}
