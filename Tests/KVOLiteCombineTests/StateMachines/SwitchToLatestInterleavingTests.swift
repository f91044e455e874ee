import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// Every interleaving of `switchToLatest`'s callers over its machine
/// (``SwitchToLatestStateMachine``), driven as `SwitchToLatestInner` drives it: upstream
/// sending two publishers and finishing; the first publisher sending values within what it
/// was asked and finishing; downstream asking for more, or cancelling.
@Suite("State machines: switchToLatest, every interleaving")
struct SwitchToLatestInterleavingTests {
  typealias Machine = SwitchToLatestStateMachine<TestError>

  /// A latest publisher's subscription: what it was asked for, and whether it was cancelled.
  final class Child: Subscription, @unchecked Sendable {
    var asked: Int? = 0
    var cancelled = false
    func request(_ demand: Subscribers.Demand) {
      guard let current = asked else { return }
      asked = demand.max.map { current + $0 }
    }
    func cancel() { cancelled = true }
    /// Whether it may send one more value (it was asked, and not cancelled).
    func maySend(after sent: Int) -> Bool { !cancelled && (asked.map { sent < $0 } ?? true) }
  }

  final class World {
    var machine = Machine()
    let record = ContractRecord()
    let delivery = SimulatedLock()
    let children = [Child(), Child()]
    /// Whether each publisher's subscription has arrived.
    var subscribed = [false, false]
    var trap: String?
  }

  /// Performs the action of a transition made by `caller`: requests and cancellations at
  /// once; a completion or a value under the delivery lock, in steps of its own.
  static func perform(_ action: Machine.Action, _ world: World, _ caller: ScriptedCaller) {
    switch action {
    case .none, .switchTo, .requestUnlimited: break
    case .cancel(let subscription): subscription.cancel()
    case .request(let subscription, let demand): subscription.request(demand)
    case .deliver: break
    case .complete(_, let cancelling):
      world.record.decided("completion")
      for subscription in cancelling { subscription.cancel() }
      caller.thenNext(deliveredUnderLock(world.delivery, caller) { world.record.completion() })
    case .end(let cancelling):
      for subscription in cancelling { subscription.cancel() }
    case .trap(let message): world.trap = message
    }
  }

  /// The step that delivers under `delivery` (a delivery lock): it waits for the lock, and
  /// records. (Taking the lock, the delivery and the release are one step: another caller can
  /// only wait for the lock meanwhile.)
  static func deliveredUnderLock(
    _ delivery: SimulatedLock, _ caller: ScriptedCaller, _ record: @escaping () -> Void
  ) -> [ScriptedCaller.Step] {
    [.init(canRun: { delivery.canTake(caller.name) }, run: record)]
  }

  /// Upstream: sends publisher 1, whose subscription then arrives; sends publisher 2 (which
  /// cancels 1), whose subscription arrives; finishes, or fails.
  static func upstream(_ world: World, failing: Bool) -> ScriptedCaller {
    let me = ScriptedCaller("upstream")
    for index in 1...2 {
      me.then { perform(world.machine.receiveOuterValue(), world, me) }
      me.then {
        world.subscribed[index - 1] = true
        perform(world.machine.receiveLatest(world.children[index - 1], index: index), world, me)
      }
    }
    me.then {
      perform(
        world.machine.receiveOuter(failing ? .failure(TestError()) : .finished), world, me)
    }
    return me
  }

  /// Publisher 1: once subscribed, sends `values` values while asked (and not cancelled), then
  /// finishes.
  static func firstPublisher(_ world: World, values: Int) -> ScriptedCaller {
    let me = ScriptedCaller("publisher 1")
    let child = world.children[0]
    var sent = 0
    for value in 0..<values {
      // Decided under the delivery lock, delivered under it, then the lock released.
      me.then(when: world.subscribed[0] && world.delivery.canTake(me.name)) {
        guard child.maySend(after: sent) else { return }
        sent += 1
        world.delivery.take(me.name)
        let action = world.machine.receiveLatestValue(index: 1)
        guard case .deliver = action else {
          world.delivery.release(me.name)
          return perform(action, world, me)
        }
        world.record.decided("value")
        me.thenNext([
          .init(canRun: { true }) { world.record.value(value) },
          .init(canRun: { true }) { world.delivery.release(me.name) },
        ])
      }
    }
    me.then(when: world.subscribed[0]) {
      guard !child.cancelled else { return }
      perform(world.machine.receiveLatest(.finished, index: 1), world, me)
    }
    return me
  }

  /// Downstream: has its subscription, asks for `first`, then either asks for one more or
  /// cancels.
  static func downstream(_ world: World, first: Int?, thenCancel: Bool) -> ScriptedCaller {
    let me = ScriptedCaller("downstream")
    world.record.subscription()
    me.then {
      world.record.asked(first)
      perform(world.machine.request(first.map { .max($0) } ?? .unlimited), world, me)
    }
    me.then {
      if thenCancel {
        perform(world.machine.cancel(), world, me)
        world.record.cancelReturned()
      } else {
        world.record.asked(1)
        perform(world.machine.request(.max(1)), world, me)
      }
    }
    return me
  }

  static func explore(first: Int?, thenCancel: Bool, failing: Bool)
    -> InterleavingExplorer.Report
  {
    InterleavingExplorer.explore(
      setUp: {
        let world = World()
        // As in Combine, the latest publisher's values still reach the subscriber after
        // upstream's failure.
        world.record.valuesAfterCompletion = failing
        return (
          world,
          [
            downstream(world, first: first, thenCancel: thenCancel).caller,
            upstream(world, failing: failing).caller, firstPublisher(world, values: 2).caller,
          ]
        )
      },
      invariant: { (world: World) in world.trap ?? world.record.violation },
      atEnd: { (world: World) in
        // Publisher 2 never finishes: downstream is completed by upstream's failure (unless
        // cancelled first), never by a finish.
        let completions = world.record.events.filter { $0.hasPrefix("completion") }.count
        let expected = failing && !world.record.cancelled ? 1 : 0
        return completions == expected || (failing && completions <= 1)
          ? nil : "\(completions) completions: \(world.record.events)"
      })
  }

  @Test(
    "switch, values within demand, finish or fail, request and cancel: the contract holds in every interleaving",
    arguments: [
      (Int?.none, false, false), (1, false, false), (1, true, false), (2, true, false),
      (Int?.none, false, true), (1, true, true),
    ])
  func everyInterleaving(_ first: Int?, _ thenCancel: Bool, _ failing: Bool) {
    let report = Self.explore(first: first, thenCancel: thenCancel, failing: failing)
    #expect(report.failure == nil, "\(report)")
    #expect(!report.truncated && report.interleavings > 100)
  }
}
