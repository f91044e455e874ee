import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// `zip`'s state machine, without threads: each phase (live, ended) under each event, the
/// next phase and the action.
@Suite("State machines: zip")
struct ZipStateMachineTests {
  typealias Machine = ZipStateMachine<TestError>
  typealias Named = SwitchToLatestStateMachineTests.Named

  static func describe(_ action: Machine.Action) -> String {
    switch action {
    case .none: "none"
    case .cancel(let subscription): "cancel(\(subscription))"
    case .handOverSubscription: "handOverSubscription"
    case .deliver(let values, let others): "deliver(\(values), others: \(others.map { "\($0)" }))"
    case .request(let subscriptions, let demand):
      "request(\(subscriptions.map { "\($0)" }), \(demand))"
    case .complete(let completion, let cancelling, let dropped):
      "complete(\(completion), cancelling: \(cancelling.map { "\($0)" }), dropped: \(dropped.map(\.count)))"
    case .end(let cancelling, let dropped):
      "end(cancelling: \(cancelling.map { "\($0)" }), dropped: \(dropped.map(\.count)))"
    }
  }

  /// A live machine of two upstreams "a" and "b", both subscribed, "a" holding one value.
  static var live: Machine {
    var machine = Machine(count: 2)
    _ = machine.receive(Named("a"), index: 0)
    _ = machine.receive(Named("b"), index: 1)
    _ = machine.receive(1, index: 0)
    return machine
  }

  /// An ended machine (cancelled).
  static var ended: Machine {
    var machine = live
    _ = machine.cancel()
    return machine
  }

  @Test(
    "subscriptions: kept; the last hands downstream its subscription; a second or a late one is cancelled"
  )
  func subscriptions() {
    var machine = Machine(count: 2)
    #expect(Self.describe(machine.receive(Named("a"), index: 0)) == "none")
    #expect(Self.describe(machine.receive(Named("a2"), index: 0)) == "cancel(a2)")
    #expect(Self.describe(machine.receive(Named("b"), index: 1)) == "handOverSubscription")
    var ended = Self.ended
    #expect(Self.describe(ended.receive(Named("c"), index: 0)) == "cancel(c)")
    #expect(ended.phase == .ended)
  }

  @Test("values: queued until every upstream has one, then a tuple; ended ignores them")
  func values() {
    var machine = Self.live
    #expect(Self.describe(machine.receive(2, index: 0)) == "none")
    #expect(machine.upstreams.map(\.queue.count) == [2, 0])
    #expect(Self.describe(machine.receive(10, index: 1)) == "deliver([1, 10], others: [\"a\"])")
    #expect(machine.delivering == 1 && machine.upstreams.map(\.queue.count) == [1, 0])
    #expect(machine.delivered() == .none && machine.delivering == nil)
    var ended = Self.ended
    #expect(Self.describe(ended.receive(3, index: 1)) == "none")
    #expect(ended.upstreams.map(\.queue.count) == [0, 0])
  }

  @Test(
    "requests: every upstream asked; while a tuple is delivered, all but its last, and the rest is its result"
  )
  func requests() {
    var machine = Self.live
    #expect(Self.describe(machine.request(.max(2))) == "request([\"a\", \"b\"], max(2))")
    _ = machine.receive(10, index: 1)
    #expect(Self.describe(machine.request(.max(3))) == "request([\"a\"], max(3))")
    #expect(Self.describe(machine.request(.max(1))) == "request([\"a\"], max(1))")
    #expect(machine.delivered() == .max(4))
    #expect(machine.raisedWhileDelivering == .none)
    var ended = Self.ended
    #expect(Self.describe(ended.request(.max(1))) == "none")
  }

  @Test("finished: ends once the finished upstream's queue is empty, cancelling the others")
  func finished() {
    var waiting = Self.live
    #expect(Self.describe(waiting.receive(.finished, index: 0)) == "none")
    #expect(waiting.phase == .live)
    _ = waiting.receive(10, index: 1)
    _ = waiting.delivered()
    #expect(
      Self.describe(waiting.finishIfExhausted())
        == "complete(finished, cancelling: [\"b\"], dropped: [0, 0])")
    #expect(waiting.phase == .ended && waiting.upstreams.allSatisfy { $0.subscription == nil })
    var empty = Self.live
    #expect(
      Self.describe(empty.receive(.finished, index: 1))
        == "complete(finished, cancelling: [\"a\"], dropped: [1, 0])")
    var ended = Self.ended
    #expect(Self.describe(ended.receive(.finished, index: 1)) == "none")
  }

  @Test("failure: ends, cancelling every upstream, the failed one too; ended ignores it")
  func failure() {
    var machine = Self.live
    #expect(
      Self.describe(machine.receive(.failure(TestError()), index: 1))
        == "complete(failure(oops), cancelling: [\"a\", \"b\"], dropped: [1, 0])")
    #expect(machine.phase == .ended)
    #expect(Self.describe(machine.receive(.failure(TestError()), index: 0)) == "none")
  }

  @Test("cancel: ends, cancelling every upstream and dropping the queues; again, nothing is left")
  func cancel() {
    var machine = Self.live
    #expect(Self.describe(machine.cancel()) == "end(cancelling: [\"a\", \"b\"], dropped: [1, 0])")
    #expect(Self.describe(machine.cancel()) == "end(cancelling: [], dropped: [0, 0])")
    #expect(machine.phase == .ended)
  }
}
