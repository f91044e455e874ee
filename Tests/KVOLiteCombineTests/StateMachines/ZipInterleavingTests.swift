import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// Every interleaving of `zip`'s callers over its machine (``ZipStateMachine``), driven as
/// `ZipInner` drives it: two upstreams, each subscribing, sending what it was asked for and
/// finishing (or one failing), and downstream asking for more or cancelling.
@Suite("State machines: zip, every interleaving")
struct ZipInterleavingTests {
  typealias Machine = ZipStateMachine<TestError>
  typealias Child = SwitchToLatestInterleavingTests.Child

  final class World {
    var machine = Machine(count: 2)
    let record = ContractRecord()
    let delivery = SimulatedLock()
    let upstreams = [Child(), Child()]
  }

  static func perform(_ action: Machine.Action, _ world: World, _ caller: ScriptedCaller) {
    switch action {
    case .none, .deliver: break
    case .cancel(let subscription): subscription.cancel()
    case .handOverSubscription:
      world.record.subscription()
      world.record.asked(1)
      perform(world.machine.request(.max(1)), world, caller)
    case .request(let subscriptions, let demand):
      for subscription in subscriptions { subscription.request(demand) }
    case .complete(_, let cancelling, _):
      world.record.decided("completion")
      caller.thenNext(
        SwitchToLatestInterleavingTests.deliveredUnderLock(world.delivery, caller) {
          world.record.completion()
        } + [.init(canRun: { true }) { for subscription in cancelling { subscription.cancel() } }])
    case .end(let cancelling, _):
      for subscription in cancelling { subscription.cancel() }
    }
  }

  /// Upstream `index`: subscribes, sends one value if asked, then finishes (or fails).
  static func upstream(_ index: Int, _ world: World, failing: Bool) -> ScriptedCaller {
    let me = ScriptedCaller("upstream \(index)")
    let child = world.upstreams[index]
    me.then { perform(world.machine.receive(child, index: index), world, me) }
    // Under the delivery lock, the transition, then the tuple, then what was raised; then the
    // check for the end. (Taking the lock and the first transition are one step: nothing
    // another caller can see happens between them; so are the release and the check.)
    me.then(when: (child.cancelled || child.asked != 0) && world.delivery.canTake(me.name)) {
      guard !child.cancelled else { return }
      world.delivery.take(me.name)
      guard case .deliver = world.machine.receive(index * 10, index: index) else {
        return world.delivery.release(me.name)
      }
      world.record.decided("value")
      me.thenNext([
        .init(canRun: { true }) { world.record.value(index) },
        .init(canRun: { true }) {
          _ = world.machine.delivered()
          world.delivery.release(me.name)
          perform(world.machine.finishIfExhausted(), world, me)
        },
      ])
    }
    me.then {
      guard !child.cancelled else { return }
      let completion: Subscribers.Completion<TestError> =
        failing ? .failure(TestError()) : .finished
      perform(world.machine.receive(completion, index: index), world, me)
    }
    return me
  }

  /// Downstream: once subscribed, cancels (or does nothing more).
  static func downstream(_ world: World, cancelling: Bool) -> ScriptedCaller {
    let me = ScriptedCaller("downstream")
    me.then(when: !world.record.events.isEmpty) {
      guard cancelling else { return }
      perform(world.machine.cancel(), world, me)
      world.record.cancelReturned()
    }
    return me
  }

  @Test(
    "subscribe, send within demand, finish or fail, cancel: the contract holds in every interleaving, and exactly one completion comes unless cancelled",
    arguments: [(false, false), (true, false), (false, true)])
  func everyInterleaving(_ failing: Bool, _ cancelling: Bool) {
    let report = InterleavingExplorer.explore(
      setUp: {
        let world = World()
        return (
          world,
          [
            Self.upstream(0, world, failing: false).caller,
            Self.upstream(1, world, failing: failing).caller,
            Self.downstream(world, cancelling: cancelling).caller,
          ]
        )
      },
      invariant: { (world: World) in world.record.violation },
      atEnd: { (world: World) in
        let completions = world.record.events.filter { $0.hasPrefix("completion") }.count
        return cancelling || completions == 1
          ? nil : "\(completions) completions: \(world.record.events)"
      })
    #expect(report.failure == nil, "\(report)")
    #expect(!report.truncated && report.interleavings > 100)
  }
}
