import Synchronization

/// The observers of one key of one object, in registration order: an immutable snapshot.
///
/// A registrar replaces a key's list whenever an observer comes or goes, so a delivery can
/// iterate the list it took without holding any lock and without seeing observers added during
/// it. A delivery does not retain its list: it counts itself in ``inFlight`` (the increment
/// under the registrar's lock, the decrement after its last use of the list, without the
/// lock), and the registrar keeps every list whose count is not zero, current or replaced
/// ("retired"), until the count drops. That count is also what
/// ``ObservationToken/invalidate()`` waits on.
@usableFromInline
final class ObserverList: @unchecked Sendable {
  // @unchecked: immutable but for the atomic count.
  @usableFromInline let triggers: ContiguousArray<Trigger>
  /// A set needs a will-phase: some observer wants a prior notification, or is a link of a
  /// path observation (which reads its old value through the chain at will-time).
  @usableFromInline let needsWillPhase: Bool
  /// Some typed observer wants the old value.
  @usableFromInline let wantsOld: Bool
  /// Which option combinations typed observers use: bit `(wantsOld ? 2 : 0) + (wantsNew ? 1 : 0)`
  /// is set for each, so that a delivery builds only the change records someone needs.
  @usableFromInline let recordKinds: UInt8
  /// Deliveries that are iterating this list now.
  @usableFromInline let inFlight = Atomic<Int>(0)

  init(_ triggers: ContiguousArray<Trigger>) {
    self.triggers = triggers
    needsWillPhase = triggers.contains { $0.wantsPrior || !$0.isTyped }
    wantsOld = triggers.contains { $0.isTyped && $0.wantsOld }
    recordKinds = triggers.reduce(0) { kinds, trigger in
      kinds | 1 << ((trigger.wantsOld ? 2 : 0) + (trigger.wantsNew ? 1 : 0))
    }
  }

  /// A new list with `trigger` in its place by registration order.
  func inserting(_ trigger: Trigger) -> ObserverList {
    var triggers = self.triggers
    var position = triggers.endIndex
    while position > 0, triggers[position - 1].order > trigger.order { position -= 1 }
    triggers.insert(trigger, at: position)
    return ObserverList(triggers)
  }

  func contains(_ trigger: Trigger) -> Bool {
    triggers.contains { $0 === trigger }
  }
}
