import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// Every interleaving of `buffer`'s callers over its machine (``BufferStateMachine``), driven
/// as `BufferInner` drives it: upstream subscribing (downstream handed its subscription after
/// upstream is asked), sending three values and finishing or failing; downstream asking for
/// one value at a time, or cancelling. Drains are steps of their own, one batch per step.
@Suite("State machines: buffer, every interleaving")
struct BufferInterleavingTests {
  typealias Machine = BufferStateMachine<Int, TestError>
  typealias Child = SwitchToLatestInterleavingTests.Child

  final class World {
    var machine = Machine(size: 2, prefetch: .byRequest, whenFull: .dropOldest)
    let record = ContractRecord()
    let upstream = Child()
  }

  /// The steps of a drain by `caller`, added after the running step; `then` runs with what
  /// the drain returned (what to ask upstream for).
  static func drain(
    _ world: World, _ caller: ScriptedCaller,
    then: @escaping (Subscribers.Demand) -> Void = { _ in }
  ) {
    // The drain starts and makes its first transition with the lock held once (in the
    // caller's running step); each later one with the lock that `delivered` takes.
    guard world.machine.startDrain() else { return then(.none) }
    func step() {
      switch world.machine.drain() {
      case .stop(let demand): then(demand)
      case .complete(_, _, let demand):
        world.record.decided("completion")
        caller.thenNext([
          .init(canRun: { true }) {
            world.record.completion()
            then(demand)
          }
        ])
      case .deliver(let batch):
        for _ in batch { world.record.decided("value") }
        caller.thenNext([
          .init(canRun: { true }) { for value in batch { world.record.value(value) } },
          .init(canRun: { true }) {
            world.machine.delivered(count: batch.count, answering: .none)
            step()
          },
        ])
      }
    }
    step()
  }

  /// Upstream: its subscription (upstream asked, then downstream handed its own and asking
  /// for one value from inside), three values, then a finish or a failure.
  static func upstream(_ world: World, failing: Bool) -> ScriptedCaller {
    let me = ScriptedCaller("upstream")
    me.then {
      guard case .start(let subscription, let demand) = world.machine.receive(world.upstream)
      else { return }
      subscription.request(demand)
    }
    me.then {
      world.record.subscription()
      world.record.asked(1)
      if case .drainAndRequest = world.machine.request(.max(1)) { drain(world, me) }
    }
    me.then { if case .drain = world.machine.handedOver() { drain(world, me) } }
    for value in 1...3 {
      me.then { if case .drain = world.machine.receive(value).0 { drain(world, me) } }
    }
    me.then {
      let completion: Subscribers.Completion<TestError> =
        failing ? .failure(TestError()) : .finished
      if case .drain = world.machine.receive(completion) { drain(world, me) }
    }
    return me
  }

  /// Downstream: once it has its subscription, asks for one more value, then for another or
  /// cancels (each drain it starts runs on its thread).
  static func downstream(_ world: World, cancelling: Bool) -> ScriptedCaller {
    let me = ScriptedCaller("downstream")
    func ask() {
      world.record.asked(1)
      guard case .drainAndRequest = world.machine.request(.max(1)) else { return }
      drain(world, me)
    }
    me.then(when: !world.record.events.isEmpty) { ask() }
    me.then {
      guard cancelling else { return ask() }
      if case .end(let subscription, _) = world.machine.cancel() { subscription.cancel() }
      world.record.cancelReturned()
    }
    return me
  }

  @Test(
    "subscribe, values, finish or fail, requests and cancel: the contract holds in every interleaving",
    arguments: [(false, false), (true, false), (false, true), (true, true)])
  func everyInterleaving(_ failing: Bool, _ cancelling: Bool) {
    let report = InterleavingExplorer.explore(
      setUp: {
        let world = World()
        return (
          world,
          [
            Self.upstream(world, failing: failing).caller,
            Self.downstream(world, cancelling: cancelling).caller,
          ]
        )
      },
      invariant: { (world: World) in world.record.violation },
      atEnd: { (world: World) in
        // A failure always reaches downstream (unless it cancelled); a finish needs demand
        // left once the values are out.
        let completions = world.record.events.filter { $0.hasPrefix("completion") }.count
        return !failing || world.record.cancelled || completions == 1
          ? nil : "no completion: \(world.record.events)"
      })
    #expect(report.failure == nil, "\(report)")
    #expect(!report.truncated && report.interleavings > 40)
  }
}
