import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// `buffer`'s state machine, without threads: each state (awaiting its subscription,
/// subscribed, failed, ended) under each event, the next state and the action, and the steps
/// of a drain.
@Suite("State machines: buffer")
struct BufferStateMachineTests {
  typealias Machine = BufferStateMachine<Int, TestError>
  typealias Named = SwitchToLatestStateMachineTests.Named

  static func describe(_ action: Machine.Action) -> String {
    switch action {
    case .none: "none"
    case .cancel(let subscription): "cancel(\(subscription))"
    case .start(let subscription, let demand): "start(\(subscription), \(demand))"
    case .drain: "drain"
    case .makeError: "makeError"
    case .drainAndRequest(let subscription): "drainAndRequest(\(subscription))"
    case .end(let subscription, let dropped):
      "end(cancelling: \(subscription), dropped: \(dropped.elements))"
    }
  }

  static func describe(_ step: Machine.DrainStep) -> String {
    switch step {
    case .deliver(let batch): "deliver(\(batch))"
    case .complete(let completion, let dropped, let demand):
      "complete(\(completion), dropped: \(dropped.elements), upstream: \(demand))"
    case .stop(let demand): "stop(upstream: \(demand))"
    }
  }

  static func describe(_ state: Machine.State) -> String {
    switch state {
    case .awaitingSubscription: "awaitingSubscription"
    case .handingOver(let subscription): "handingOver(\(subscription))"
    case .subscribed(let subscription): "subscribed(\(subscription))"
    case .ended: "ended"
    }
  }

  /// A machine of size 2 subscribed to "up", holding `values`.
  static func subscribed(
    _ values: [Int] = [], prefetch: Publishers.PrefetchStrategy = .byRequest,
    whenFull: Publishers.BufferingStrategy<TestError> = .dropNewest
  ) -> Machine {
    var machine = Machine(size: 2, prefetch: prefetch, whenFull: whenFull)
    _ = machine.receive(Named("up"))
    _ = machine.handedOver()
    for value in values { _ = machine.receive(value) }
    return machine
  }

  @Test(
    "subscription: taken once, upstream asked for the size (keepFull) or everything (byRequest)")
  func subscription() {
    var keepFull = Machine(size: 3, prefetch: .keepFull, whenFull: .dropNewest)
    #expect(Self.describe(keepFull.receive(Named("up"))) == "start(up, max(3))")
    #expect(Self.describe(keepFull.receive(Named("again"))) == "cancel(again)")
    var byRequest = Machine(size: 3, prefetch: .byRequest, whenFull: .dropNewest)
    #expect(Self.describe(byRequest.receive(Named("up"))) == "start(up, unlimited)")
    var empty = Machine(size: 0, prefetch: .keepFull, whenFull: .dropNewest)
    #expect(Self.describe(empty.receive(Named("up"))) == "start(up, max(0))")
  }

  @Test("the handover: a failure that comes before downstream has its subscription waits for it")
  func handover() {
    var machine = Machine(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
    _ = machine.receive(Named("up"))
    #expect(Self.describe(machine.state) == "handingOver(up)")
    #expect(Self.describe(machine.receive(1).0) == "drain")
    #expect(Self.describe(machine.receive(.failure(TestError()))) == "drain")
    let started = machine.startDrain()
    #expect(started)
    #expect(Self.describe(machine.drain()) == "stop(upstream: max(0))")
    #expect(Self.describe(machine.handedOver()) == "drain")
    #expect(Self.describe(machine.state) == "subscribed(up)")
    #expect(
      Self.describe(machine.drain()) == "complete(failure(oops), dropped: [1], upstream: max(0))")
    #expect(Self.describe(machine.handedOver()) == "none")
    var quiet = Machine(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
    _ = quiet.receive(Named("up"))
    #expect(Self.describe(quiet.request(.max(1))) == "drainAndRequest(up)")
    #expect(Self.describe(quiet.handedOver()) == "none")
  }

  @Test(
    "values: held, then a drain; when full the newest or the oldest is dropped, or the error made; ignored unless subscribed and not failed"
  )
  func values() {
    var machine = Self.subscribed([1, 2])
    let (newest, droppedNewest) = machine.receive(3)
    #expect(Self.describe(newest) == "drain" && droppedNewest == 3)
    #expect(machine.values.elements == [1, 2])
    var oldest = Self.subscribed([1, 2], whenFull: .dropOldest)
    let (action, droppedOldest) = oldest.receive(3)
    #expect(Self.describe(action) == "drain" && droppedOldest == 1)
    #expect(oldest.values.elements == [2, 3])
    var failing = Self.subscribed([1, 2], whenFull: .customError { TestError() })
    #expect(Self.describe(failing.receive(3).0) == "makeError")
    #expect(Self.describe(failing.madeError(TestError())) == "cancel(up)")
    #expect(Self.describe(failing.receive(4).0) == "none")
    var awaiting = Machine(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
    #expect(Self.describe(awaiting.receive(1).0) == "none" && awaiting.values.isEmpty)
    var ended = Self.subscribed([1])
    _ = ended.cancel()
    #expect(Self.describe(ended.receive(1).0) == "none" && ended.values.isEmpty)
  }

  @Test("completion: kept once, then a drain; ignored unless subscribed")
  func completion() {
    var machine = Self.subscribed([1])
    #expect(Self.describe(machine.receive(.finished)) == "drain")
    #expect(Self.describe(machine.receive(.failure(TestError()))) == "none")
    var awaiting = Machine(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
    #expect(Self.describe(awaiting.receive(.finished)) == "none")
  }

  @Test(
    "request and cancel: demand, then a drain and a request upstream; cancel ends and drops what is held"
  )
  func requestAndCancel() {
    var machine = Self.subscribed([1, 2])
    #expect(Self.describe(machine.request(.max(1))) == "drainAndRequest(up)")
    #expect(machine.demand == .max(1))
    #expect(Self.describe(machine.cancel()) == "end(cancelling: up, dropped: [1, 2])")
    #expect(Self.describe(machine.state) == "ended" && machine.values.isEmpty)
    #expect(Self.describe(machine.request(.max(1))) == "none")
    #expect(Self.describe(machine.cancel()) == "none")
  }

  @Test(
    "a drain delivers what the demand allows, then stops; one at a time; keepFull asks upstream again"
  )
  func drain() {
    var machine = Self.subscribed([1, 2], prefetch: .keepFull)
    _ = machine.request(.max(1))
    let started = machine.startDrain()
    #expect(started)
    #expect(Self.describe(machine.drain()) == "deliver([1])")
    let second = machine.startDrain()
    #expect(!second)  // another drain leaves the work to this one
    machine.delivered(count: 1, answering: .max(5))
    #expect(Self.describe(machine.drain()) == "deliver([2])")
    machine.delivered(count: 1, answering: .none)
    #expect(Self.describe(machine.drain()) == "stop(upstream: max(2))")
    #expect(machine.demand == .max(4))
  }

  @Test(
    "a drain completes: a failure at once, dropping what is held; a finish once empty and asked")
  func drainCompletes() {
    var failed = Self.subscribed([1, 2])
    _ = failed.receive(.failure(TestError()))
    let failedStarted = failed.startDrain()
    #expect(failedStarted)
    #expect(
      Self.describe(failed.drain()) == "complete(failure(oops), dropped: [1, 2], upstream: max(0))")
    #expect(Self.describe(failed.state) == "ended")
    var finished = Self.subscribed([1])
    _ = finished.receive(.finished)
    let finishedStarted = finished.startDrain()
    #expect(finishedStarted)
    #expect(Self.describe(finished.drain()) == "stop(upstream: max(0))")
    _ = finished.request(.max(2))
    #expect(Self.describe(finished.drain()) == "deliver([1])")
    finished.delivered(count: 1, answering: .none)
    #expect(Self.describe(finished.drain()) == "complete(finished, dropped: [], upstream: max(0))")
    #expect(Self.describe(finished.drain()) == "stop(upstream: max(0))")
  }
}
