import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// Every interleaving of `flatMap`'s callers over its machine (``FlatMapStateMachine``), driven
/// as `FlatMapInner` drives it: upstream making one child and finishing (or failing); the child
/// subscribing, sending two values within what it was asked and finishing; downstream asking
/// for one value more (which delivers a held one), or cancelling. Deliveries take a simulated
/// delivery lock.
@Suite("State machines: flatMap, every interleaving")
struct FlatMapInterleavingTests {
  typealias Machine = FlatMapStateMachine<Int, TestError>
  typealias Child = SwitchToLatestInterleavingTests.Child

  final class World {
    var machine = Machine(maxPublishers: .max(1))
    let record = ContractRecord()
    let delivery = SimulatedLock()
    let upstream = Child()
    let child = Child()
    var childMade = false
    var childSubscribed = false
    var upstreamDone = false
  }

  /// The steps that deliver `value` under the delivery lock, which `caller` took to decide
  /// it, added after the running step; `then` runs with downstream's answer, still under the
  /// lock, which is released after it.
  static func deliver(
    _ value: Int, _ world: World, _ caller: ScriptedCaller,
    then: @escaping (Subscribers.Demand) -> Void = { _ in }
  ) {
    world.record.decided("value")
    caller.thenNext([
      .init(canRun: { true }) {
        world.machine.enterDownstream()
        world.record.value(value)
        world.machine.leaveDownstream()
      },
      .init(canRun: { true }) {
        then(.none)
        world.delivery.release(caller.name)
      },
    ])
  }

  /// A step that takes the delivery lock (waiting for it), then runs `body`.
  static func underDeliveryLock(
    _ world: World, _ caller: ScriptedCaller, _ body: @escaping () -> Void
  ) -> ScriptedCaller.Step {
    .init(
      canRun: { world.delivery.canTake(caller.name) },
      run: {
        world.delivery.take(caller.name)
        body()
      })
  }

  /// Performs an action of `caller`'s transition.
  static func perform(_ action: Machine.Action, _ world: World, _ caller: ScriptedCaller) {
    switch action {
    case .none, .makeChild: break
    case .cancel(let subscription): subscription.cancel()
    case .request(let subscription, let demand): subscription.request(demand)
    case .deliverHeld: deliverHeld(world, caller)
    case .deliverAllHeld(let children): deliverAllHeld(children, world, caller)
    case .complete(_, let cancelling, _, _):
      world.record.decided("completion")
      for subscription in cancelling { subscription.cancel() }
      caller.thenNext([
        .init(canRun: { world.delivery.canTake(caller.name) }) { world.record.completion() }
      ])
    case .end(let cancelling, _):
      for subscription in cancelling { subscription.cancel() }
    }
  }

  /// The loop that delivers the values held while there is demand, one value per turn: each
  /// taken under the delivery lock; its sender then asked for one more.
  static func deliverHeld(_ world: World, _ caller: ScriptedCaller) {
    caller.thenNext([
      underDeliveryLock(world, caller) {
        guard case .deliver(let value, let child) = world.machine.nextHeld() else {
          world.delivery.release(caller.name)
          return perform(world.machine.finishIfDone(), world, caller)
        }
        deliver(value, world, caller) { more in
          world.machine.deliveredHeld(answering: more)
          caller.thenNext([
            .init(canRun: { true }) {
              child?.request(.max(1))
              world.machine.askedChild()
              deliverHeld(world, caller)
            }
          ])
        }
      }
    ])
  }

  /// The loop that delivers every value held, with unlimited demand, then asks the children
  /// for everything.
  static func deliverAllHeld(
    _ children: [any Subscription], _ world: World, _ caller: ScriptedCaller
  ) {
    caller.thenNext([
      underDeliveryLock(world, caller) {
        guard let value = world.machine.takeHeld() else {
          world.delivery.release(caller.name)
          for child in children { child.request(.unlimited) }
          return perform(world.machine.finishIfDone(), world, caller)
        }
        deliver(value, world, caller) { _ in
          caller.thenNext([.init(canRun: { true }) { deliverAllHeld(children, world, caller) }])
        }
      }
    ])
  }

  static func upstream(_ world: World, failing: Bool) -> ScriptedCaller {
    let me = ScriptedCaller("upstream")
    me.then { perform(world.machine.receiveOuter(world.upstream), world, me) }
    me.then {
      guard case .makeChild = world.machine.receiveOuterValue() else { return }
      _ = world.machine.childMade()
      world.childMade = true
    }
    me.then {
      world.upstreamDone = true
      guard !world.upstream.cancelled else { return }
      let completion: Subscribers.Completion<TestError> =
        failing ? .failure(TestError()) : .finished
      perform(world.machine.receiveOuter(completion), world, me)
    }
    return me
  }

  static func child(_ world: World) -> ScriptedCaller {
    let me = ScriptedCaller("child")
    let child = world.child
    me.then(when: world.childMade || world.upstreamDone) {
      guard world.childMade else { return }
      perform(world.machine.receiveChild(child, index: 0), world, me)
      world.childSubscribed = true
    }
    var sent = 0
    for value in 1...2 {
      // Decided under the delivery lock, delivered under it.
      // Gone (upstream never made it), or asked (or cancelled) with the delivery lock free.
      func canSend() -> Bool {
        let gone = world.upstreamDone && !world.childMade
        return gone || (child.cancelled || child.asked != 0) && world.delivery.canTake(me.name)
      }
      me.then(when: canSend()) {
        guard world.childSubscribed, child.maySend(after: sent) else { return }
        sent += 1
        world.delivery.take(me.name)
        switch world.machine.receiveChild(value, index: 0) {
        case .hold: world.delivery.release(me.name)
        case .deliverUnlimited: deliver(value, world, me)
        case .deliver:
          deliver(value, world, me) { more in
            world.machine.delivered(answering: more)
            child.request(.max(1))  // the value's `receive` result
          }
        }
      }
    }
    me.then(when: world.childSubscribed || world.upstreamDone && !world.childMade) {
      guard world.childSubscribed, !child.cancelled else { return }
      perform(world.machine.receiveChild(.finished, index: 0), world, me)
    }
    return me
  }

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

  @Test(
    "a child made, its values within demand, finishes and failures, requests and cancel: the contract holds in every interleaving",
    arguments: [
      (1, false, false), (Int?.none, false, false), (1, true, false), (1, false, true),
    ])
  func everyInterleaving(_ first: Int?, _ thenCancel: Bool, _ failing: Bool) {
    let report = InterleavingExplorer.explore(
      setUp: {
        let world = World()
        // As in Combine, a child's value counts whatever the state: one sent after the end
        // still reaches the subscriber.
        world.record.valuesAfterCompletion = true
        return (
          world,
          [
            Self.downstream(world, first: first, thenCancel: thenCancel).caller,
            Self.upstream(world, failing: failing).caller, Self.child(world).caller,
          ]
        )
      },
      invariant: { (world: World) in world.record.violation },
      atEnd: { (world: World) in
        let completions = world.record.events.filter { $0.hasPrefix("completion") }.count
        return completions <= 1 ? nil : "\(completions) completions: \(world.record.events)"
      })
    #expect(report.failure == nil, "\(report)")
    #expect(!report.truncated && report.interleavings > 100)
  }
}
