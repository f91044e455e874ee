import Foundation
import KVOLiteLocking

/// A change event in progress: what the will-phase collected, for the did-phase.
///
/// The will-phase walks a key's list in registration order: it sends prior notifications and
/// lets each path observation read its old value through its chain, once per observation
/// however many of its links the change hits. The did-phase notifies every trigger of the
/// will-phase that is still active.
@usableFromInline
struct ChangeFrame {
  @usableFromInline let kind: KeyValueChangeKind
  /// For a to-many change, its indexes; the did-phase may correct them (a mutation made again
  /// after the will-phase, see ``ToManyMutation``).
  @usableFromInline var indexes: IndexSet?
  /// The list the change was delivered from (kept alive for the frame's life).
  @usableFromInline let list: ObserverList
  /// The observers of the change, as the list held them at will-time: observers added later
  /// do not get the change, removed ones are skipped (they are inactive).
  @usableFromInline var triggers: [Trigger] = []
  /// Path observations met at will-time, with the old value each read for itself, by
  /// position in `triggers`.
  @usableFromInline var pathOlds: [Int: Any?] = [:]

  @inlinable
  init(kind: KeyValueChangeKind, indexes: IndexSet?, list: ObserverList) {
    self.kind = kind
    self.indexes = indexes
    self.list = list
  }
}

extension ChangeFrame {
  /// Will-time for a change with typed values: typed triggers of `Value` get their prior
  /// notifications as they are; path observations get `keyOld` boxed.
  @inlinable
  static func willChange<Value>(
    _ object: AnyObject, list: ObserverList, kind: KeyValueChangeKind, indexes: IndexSet?,
    old: Value?
  ) -> ChangeFrame {
    var frame = ChangeFrame(kind: kind, indexes: indexes, list: list)
    frame.walkWill(object) { trigger in
      unsafeDowncast(trigger, to: ValueTrigger<Value>.self).deliver(
        object,
        KeyValueChange(
          kind: kind, oldValue: trigger.wantsOld ? old : nil, indexes: indexes, isPrior: true))
    } keyOld: {
      old.map { $0 as Any }
    }
    return frame
  }

  /// Did-time for a change with typed values.
  @inlinable
  func didChange<Value>(_ object: AnyObject, old: Value?, new: Value?) {
    walkDid(object) { trigger in
      unsafeDowncast(trigger, to: ValueTrigger<Value>.self).deliver(
        object,
        KeyValueChange(
          kind: kind, oldValue: trigger.wantsOld ? old : nil,
          newValue: trigger.wantsNew ? new : nil, indexes: indexes))
    } keyNew: {
      new.map { $0 as Any }
    }
  }

  /// Will-time for a change whose values are boxed (manual notification).
  static func willChangeBoxed(
    _ object: AnyObject, list: ObserverList, kind: KeyValueChangeKind, indexes: IndexSet?,
    old: Any?
  ) -> ChangeFrame {
    var frame = ChangeFrame(kind: kind, indexes: indexes, list: list)
    frame.walkWill(object) { trigger in
      trigger.deliverBoxed(object, kind: kind, old: old, new: nil, indexes: indexes, isPrior: true)
    } keyOld: {
      old
    }
    return frame
  }

  /// Did-time for a change whose values are boxed (manual notification).
  func didChangeBoxed(_ object: AnyObject, old: Any?, new: Any?) {
    walkDid(object) { trigger in
      trigger.deliverBoxed(object, kind: kind, old: old, new: new, indexes: indexes, isPrior: false)
    } keyNew: {
      new
    }
  }

  // MARK: - The walks

  @usableFromInline
  mutating func walkWill(
    _ object: AnyObject, prior: (Trigger) -> Void, keyOld: () -> Any?
  ) {
    let scope = DeliveryScope.enter()
    defer { DeliveryScope.leave(scope) }
    var seen: [ObjectIdentifier] = []
    triggers = list.triggers
    for (position, trigger) in triggers.enumerated() where trigger.isActive {
      if let (observation, _) = trigger.link {
        // One notification per observation, however many of its links this change hits.
        let id = ObjectIdentifier(observation)
        guard !seen.contains(id) else { continue }
        seen.append(id)
        pathOlds[position] = observation.willChange(kind: kind, indexes: indexes, keyOld: keyOld())
      } else if trigger.wantsPrior {
        prior(trigger)
      }
    }
  }

  @usableFromInline
  func walkDid(_ object: AnyObject, direct: (Trigger) -> Void, keyNew: () -> Any?) {
    let scope = DeliveryScope.enter()
    defer { DeliveryScope.leave(scope) }
    for (position, trigger) in triggers.enumerated() where trigger.isActive {
      if let (observation, rereads) = trigger.link {
        // Only the links the will-phase met (an observation added since was not there).
        guard let old = pathOlds[position] else { continue }
        observation.didChange(
          rereads: rereads, kind: kind, indexes: indexes, old: old, keyNew: keyNew())
      } else {
        direct(trigger)
      }
    }
    // A list that is still published got no trigger since the will-phase (one added to a list
    // that a delivery iterates goes to a copy, which replaces and closes it).
    if list.gate.pointee.isClosed {
      walkLate(object, direct: direct, keyNew: keyNew)
    }
  }

  /// Delivers the change to the triggers registered since its will-phase that take changes
  /// in flight: they were registered, and their observation read the value, before this change
  /// stored it. (An observation that follows elements places them while changes go on; without
  /// this, such a change would leave the value it read stale.) See ``RegistrarStateMachine``.
  private func walkLate(_ object: AnyObject, direct: (Trigger) -> Void, keyNew: () -> Any?) {
    guard let owner = object as? any KeyValueObservable,
      let context = owner.observationRegistrar.existingContext,
      // Entered: it does not change while it is read, and ending one of its triggers waits
      // for this delivery.
      let current = context.lateList(after: list)
    else { return }
    defer { context.endDelivery(current) }
    current.forEachTrigger { trigger in
      guard trigger.takesChangesInFlight, trigger.isActive,
        !triggers.contains(where: { $0 === trigger })
      else { return }
      if let (observation, rereads) = trigger.link {
        observation.didChange(
          rereads: rereads, kind: kind, indexes: indexes, old: nil, keyNew: keyNew())
      } else {
        direct(trigger)
      }
    }
  }
}
