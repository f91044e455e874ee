import KVOLiteLocking

/// One subscriber's subscription to a subject, without the subscriber's type, so that the
/// subject can keep a list of them.
@usableFromInline
class SubjectConduitBase<Output, Failure: Error>: @unchecked Sendable {
  /// Where it is in its core's list (guarded by the core's lock).
  @exclusivity(unchecked) @usableFromInline var position = 0
  @usableFromInline init() {}
  @usableFromInline func offer(_ value: Output) {}
  @usableFromInline func finish(_ completion: Subscribers.Completion<Failure>) {}
}

/// One subscriber's subscription to a subject (described as the subject's kind:
/// "PassthroughSubject", "CurrentValueSubject", …): the storage of a
/// ``SubjectConduitStateMachine``, behind `lock`. Each method makes one transition with the
/// lock held and performs the action it returns after unlocking.
///
/// It keeps its subscriber and the subject (and so the subject's core) alive until it ends
/// (finishes or is cancelled), and lets go of all three then; the core's list lets go of it
/// then too (see ``SubjectCore``). Deliveries to the subscriber are serialized by `delivery`, a
/// recursive lock, so that concurrent sends reach the subscriber one at a time and a send from
/// inside the subscriber's `receive` is delivered at once; the subscribing thread holds it
/// while it hands the subscriber its subscription. A completion sent meanwhile is held, and
/// delivered by the subscribing thread once `receive(subscription:)` has returned, unless the
/// subscriber cancelled inside it (``endHandOver()``).
@usableFromInline
final class SubjectConduit<Downstream: Subscriber>: SubjectConduitBase<
  Downstream.Input, Downstream.Failure
>,
Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
@unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  @usableFromInline typealias Output = Downstream.Input
  @usableFromInline typealias Failure = Downstream.Failure

  @usableFromInline let kind: SubjectKind
  @usableFromInline let name: String
  @usableFromInline let lock = Lock()
  @usableFromInline let delivery = RecursiveLock()
  @exclusivity(unchecked) @usableFromInline var machine = SubjectConduitStateMachine()
  /// The subject's state, until the conduit ends.
  @exclusivity(unchecked) @usableFromInline var core: SubjectCore<Output, Failure>?
  @exclusivity(unchecked) @usableFromInline var owner: AnyObject?
  /// The subscriber, until the conduit ends (a ``Slot``, not an `Optional`: see there).
  @usableFromInline let downstream: Slot<Downstream>
  /// The completion sent while the subscriber was handed its subscription, until the handover
  /// ends.
  @exclusivity(unchecked) @usableFromInline var heldCompletion: Subscribers.Completion<Failure>?

  @inlinable init(core: SubjectCore<Output, Failure>, owner: AnyObject, downstream: Downstream) {
    self.core = core
    kind = core.kind
    name = core.name
    self.owner = owner
    self.downstream = Slot(downstream)
  }

  /// What the conduit holds, let go of when it ends (the machine's `.end`): the subscriber,
  /// the owner and the core, for the caller to use or release after unlocking. Call with
  /// `lock` held.
  @inlinable func take() -> (Downstream?, AnyObject?, SubjectCore<Output, Failure>?) {
    (downstream.take(), owner.take(), core.take())
  }

  /// Delivers `value` if the subscriber has demand for it (or the kind ignores demand).
  ///
  /// The transition and the delivery both happen with `delivery` held, and ``finish(_:)`` ends
  /// the conduit before it takes `delivery` to send the completion: so a value either reaches
  /// the subscriber before its completion or not at all, whichever thread sends what.
  @inlinable override func offer(_ value: Output) {
    delivery.withLock {
      lock.lock()
      guard machine.offer(ignoringDemand: kind.ignoresDemand) == .deliver else {
        return lock.unlock()
      }
      let downstream = self.downstream.value
      lock.unlock()
      receive(value, downstream)
    }
  }

  /// Delivers one value, then adds the demand the subscriber answers with. Call with `delivery`
  /// held.
  @inlinable func receive(_ value: Output, _ downstream: Downstream) {
    let more = downstream.receive(value)
    guard more > 0 else { return }
    lock.withLock { machine.delivered(answering: more) }
  }

  @inlinable override func finish(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    switch machine.finish() {
    case .end:
      let (downstream, owner, core) = take()
      lock.unlock()
      withExtendedLifetime((owner, core)) {
        delivery.withLock { downstream?.receive(completion: completion) }
      }
    case .hold:
      heldCompletion = completion
      lock.unlock()
    case .none:
      lock.unlock()
    }
  }

  /// The subscriber's `receive(subscription:)` has returned (called by the subscribing thread,
  /// which still holds `delivery`): a completion held meanwhile is delivered now, unless the
  /// subscriber cancelled inside it, which dropped it.
  @inlinable func endHandOver() {
    lock.lock()
    guard machine.endHandOver() == .end, let completion = heldCompletion.take() else {
      return lock.unlock()
    }
    let (downstream, owner, core) = take()
    lock.unlock()
    withExtendedLifetime((owner, core)) { downstream?.receive(completion: completion) }
  }

  /// Adds to the demand; a current-value subject delivers its value on the first request.
  /// - Precondition: `demand` is more than `.none` (as in Combine).
  @inlinable func request(_ newDemand: Subscribers.Demand) {
    require(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    lock.lock()
    let action = machine.request(newDemand, hasValue: kind.hasValue)
    let core = self.core
    lock.unlock()
    switch action {
    case .acknowledgeDemand: core?.acknowledgeDemand()
    case .offerCurrentValue:
      guard let core else { return }
      delivery.withLock {
        lock.lock()
        guard machine.takeCurrentValue() == .deliver else { return lock.unlock() }
        let downstream = self.downstream.value
        lock.unlock()
        receive(core.value, downstream)
      }
    case .none: break
    }
  }

  @inlinable func cancel() {
    lock.lock()
    guard machine.cancel() == .end else { return lock.unlock() }
    let (downstream, owner, core) = take()
    let dropped = heldCompletion.take()
    lock.unlock()
    core?.remove(self)
    withExtendedLifetime((downstream, owner, dropped)) {}
  }

  @usableFromInline var description: String { name }
  /// Combine's children: `downstream` alone for `objectWillChange`'s subscriptions; `parent`,
  /// `downstream`, `demand` and `subject` for the subjects' and `@Published`'s.
  @usableFromInline var customMirror: Mirror {
    let (owner, downstream, demand) = lock.withLock {
      (self.owner, self.downstream.valueIfFull, machine.demand)
    }
    if kind.ignoresDemand { return Mirror(self, children: [("downstream", downstream as Any)]) }
    return Mirror(
      self,
      children: [
        ("parent", owner as Any), ("downstream", downstream as Any), ("demand", demand),
        ("subject", owner as Any),
      ])
  }
  @usableFromInline var playgroundDescription: Any { description }
}
