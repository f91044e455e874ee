import KVOLiteTestSupport
import Testing

@testable import KVOLiteCombine

/// Every interleaving of a subscriber subscribing (asking for values from inside
/// `receive(subscription:)`, then cancelling — or cancelling inside it), a sender and a
/// completer, over the subjects' machines (``SubjectStateMachine``,
/// ``SubjectConduitStateMachine``) driven as ``SubjectCore`` and ``SubjectConduit`` drive them:
/// each transition under its lock is one step, each delivery another, and a conduit's delivery
/// lock is simulated.
@Suite("State machines: subject, every interleaving")
struct SubjectInterleavingTests {
  /// A conduit as the explorer drives it: its machine, its delivery lock and its subscriber.
  final class Conduit: SubjectConduitBase<Int, TestError>, @unchecked Sendable {
    // @unchecked: the explorer runs every caller on one thread.
    var machine = SubjectConduitStateMachine()
    let delivery = SimulatedLock()
    let record = ContractRecord()
    /// What the subscriber had received when its `receive(subscription:)`, inside which it
    /// cancelled, returned (`nil`: it did not cancel there, or has not returned yet).
    var eventsWhenHandedOver: [String]?

    /// A subscriber that cancelled inside `receive(subscription:)` received something after.
    var violation: String? {
      if let before = eventsWhenHandedOver, record.events != before {
        return "\(record.events.dropFirst(before.count).first!) after a cancel inside "
          + "receive(subscription:): \(record.events)"
      }
      return record.violation
    }
  }

  /// The subject: its machine (behind its lock, which no step holds across steps).
  final class World {
    var machine: SubjectStateMachine<Int, TestError>
    var conduits: [Conduit] = []
    init(kind: SubjectKind) { machine = .init(kind: kind, current: kind.hasValue ? 0 : nil) }
  }

  /// How the subscriber attaches: as ``SubjectCore/subscribe(_:owner:)`` does now, holding
  /// the conduit's delivery lock over the handover and a completion sent meanwhile until it
  /// ends; as it did before (issue 50's find: the conduit live at once, so a completion sent
  /// during the handover is delivered after it, even to a subscriber that cancelled inside
  /// it); or as it did before that (issue 39's first find: the conduit listed, then handed
  /// over without the delivery lock).
  enum Handover { case holdingCompletion, underDeliveryLock, listedFirst }

  /// A subscriber that attaches, asks for `asking` from inside `receive(subscription:)`
  /// (`nil`: unlimited; `0`: nothing), then cancels — inside `receive(subscription:)`, if
  /// `cancelsInside`.
  static func subscriber(
    _ world: World, kind: SubjectKind, asking: Int?, handover: Handover,
    cancelsInside: Bool = false
  ) -> ScriptedCaller {
    let me = ScriptedCaller("subscribe")
    let conduit = Conduit()
    world.conduits.append(conduit)
    let locked = handover != .listedFirst
    if locked { me.then { conduit.delivery.take(me.name) } }
    me.then {
      if case .completeAtOnce = world.machine.subscribe(conduit) {
        conduit.record.subscription()
        conduit.record.completion()
      } else if handover != .holdingCompletion {
        _ = conduit.machine.endHandOver()  // live at once, as it was
      }
    }
    me.then {
      guard !conduit.record.events.contains("completion(finished)") else { return }
      conduit.record.subscription()
      if kind == .ignoresDemand { conduit.record.asked(nil) }  // it delivers whatever the demand
      guard asking != 0 else { return }
      conduit.record.asked(asking)
      let demand = asking.map { Subscribers.Demand.max($0) } ?? .unlimited
      switch conduit.machine.request(demand, hasValue: kind.hasValue) {
      case .acknowledgeDemand:
        me.thenNext([.init(canRun: { true }, run: { _ = world.machine.acknowledgeDemand() })])
      case .offerCurrentValue:
        // Under the delivery lock, which the subscriber holds (or takes, recursively).
        if conduit.machine.takeCurrentValue() == .deliver {
          conduit.record.decided("value")
          conduit.record.value(world.machine.current!)
        }
      case .none: break
      }
    }
    func cancel() {
      me.then {
        if conduit.machine.cancel() == .end {
          me.thenNext([.init(canRun: { true }, run: { world.machine.remove(conduit) })])
        }
      }
      me.then { conduit.record.cancelReturned() }
    }
    if cancelsInside {
      cancel()
      me.then { conduit.eventsWhenHandedOver = conduit.record.events }
    }
    if handover == .holdingCompletion {
      me.then {
        // The handover ends (under the delivery lock): a completion held is delivered now.
        guard conduit.machine.endHandOver() == .end else { return }
        conduit.record.decided("completion")
        me.thenNext([.init(canRun: { true }) { conduit.record.completion() }])
      }
    }
    if locked { me.then { conduit.delivery.release(me.name) } }
    if !cancelsInside { cancel() }
    return me
  }

  /// A sender of `value`: the transition, then, for each conduit it got, the offer under the
  /// conduit's delivery lock.
  static func sender(_ world: World, kind: SubjectKind, value: Int) -> ScriptedCaller {
    let me = ScriptedCaller("send")
    me.then {
      guard case .offer(let targets) = world.machine.send(value) else { return }
      me.thenNext(
        targets.compactMap { $0 as? Conduit }.flatMap { conduit -> [ScriptedCaller.Step] in
          [
            .init(
              canRun: { conduit.delivery.canTake(me.name) },
              run: { conduit.delivery.take(me.name) }),
            .init(canRun: { true }) {
              guard conduit.machine.offer(ignoringDemand: kind == .ignoresDemand) == .deliver
              else { return }
              conduit.record.decided("value")
              me.thenNext([.init(canRun: { true }) { conduit.record.value(value) }])
            },
            .init(canRun: { true }) { conduit.delivery.release(me.name) },
          ]
        })
    }
    return me
  }

  /// A completer: the transition, then, for each conduit, its end and the completion
  /// delivered under its delivery lock.
  static func completer(_ world: World) -> ScriptedCaller {
    let me = ScriptedCaller("complete")
    me.then {
      guard case .finish(let targets, _) = world.machine.complete(.finished) else { return }
      me.thenNext(
        targets.compactMap { $0 as? Conduit }.map { conduit in
          .init(canRun: { true }) {
            // `.hold`: the subscribing thread delivers it when the handover ends.
            guard conduit.machine.finish() == .end else { return }
            conduit.record.decided("completion")
            me.thenNext([
              .init(
                canRun: { conduit.delivery.canTake(me.name) },
                run: { conduit.delivery.take(me.name) }),
              .init(canRun: { true }) { conduit.record.completion() },
              .init(canRun: { true }) { conduit.delivery.release(me.name) },
            ])
          }
        })
    }
    return me
  }

  static func explore(
    kind: SubjectKind, asking: Int?, handover: Handover, cancelsInside: Bool = false
  ) -> InterleavingExplorer.Report {
    InterleavingExplorer.explore(
      setUp: {
        let world = World(kind: kind)
        return (
          world,
          [
            subscriber(
              world, kind: kind, asking: asking, handover: handover, cancelsInside: cancelsInside
            ).caller,
            sender(world, kind: kind, value: 1).caller,
            completer(world).caller,
          ]
        )
      },
      invariant: { world in world.conduits.lazy.compactMap(\.violation).first })
  }

  @Test(
    "subscribe, send, complete and cancel: the contract holds in every interleaving, for every kind",
    arguments: [
      (SubjectKind.passthrough, Int?.none), (.passthrough, 1), (.currentValue, 1),
      (.currentValue, nil), (.ignoresDemand, 0),
    ])
  func everyInterleaving(_ kind: SubjectKind, _ asking: Int?) {
    let report = Self.explore(kind: kind, asking: asking, handover: .holdingCompletion)
    #expect(report.failure == nil, "\(report)")
    #expect(!report.truncated && report.interleavings > 100)
  }

  @Test(
    "the handover as it was (listed, then handed over without the delivery lock) lets the completion or a value in first"
  )
  func theFirstFind() {
    let completion = Self.explore(kind: .passthrough, asking: nil, handover: .listedFirst)
    #expect(
      completion.failure?.message.hasPrefix("completion(finished) before the subscription") == true,
      "\(completion)")
    let value = Self.explore(kind: .ignoresDemand, asking: 0, handover: .listedFirst)
    #expect(
      value.failure?.message.hasPrefix("value(1) before the subscription") == true, "\(value)")
  }

  @Test(
    "a subscriber that cancels inside receive(subscription:) receives nothing after it, a completion sent meanwhile included, in every interleaving",
    arguments: [
      (SubjectKind.passthrough, Int?.none, 513), (.passthrough, 1, 513), (.currentValue, 1, 356),
      (.currentValue, nil, 356), (.ignoresDemand, 0, 356),
    ])
  func cancelInsideTheHandover(_ kind: SubjectKind, _ asking: Int?, _ interleavings: Int) {
    let report = Self.explore(
      kind: kind, asking: asking, handover: .holdingCompletion, cancelsInside: true)
    #expect(report.failure == nil, "\(report)")
    #expect(report.interleavings == interleavings && !report.truncated, "\(report)")
  }

  @Test(
    "the handover as it was (the completion not held) delivers a completion sent during it after a cancel inside receive(subscription:)"
  )
  func theCompletionAfterACancelInside() {
    let report = Self.explore(
      kind: .passthrough, asking: nil, handover: .underDeliveryLock, cancelsInside: true)
    #expect(
      report.failure?.message.hasPrefix(
        "completion(finished) after a cancel inside receive(subscription:)") == true,
      "\(report)")
  }
}
