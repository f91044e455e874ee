import Foundation
import KVOLiteLocking
import Synchronization

/// An entry in an ``ObserverList``: something to notify when one key of one object changes.
///
/// A trigger belongs to one registrar context and one key for its whole life. Lists are sorted
/// by ``order``, the registration order of the observation the trigger belongs to, so that
/// delivery in list order is delivery in registration order.
@usableFromInline
class Trigger: Observation, @unchecked Sendable {
  // @unchecked: immutable but for the atomic registration state, which its registrar's
  // transitions write.
  // The stored properties are ordered and sized so that a direct observation (a
  // ``TypedRecord``: the order, the context, the key and the flags in one word, then its
  // handler) takes 56 bytes, one 64-byte heap block (Performance article, row M1).
  @usableFromInline final let order: UInt64
  /// The registrar context whose lists hold this trigger (the trigger keeps it alive, not the
  /// object or the registrar), and the key there.
  final let context: RegistrarContext
  /// The key's index in its class's table (``KeyTable`` allows at most `UInt16.max` keys).
  private final let keyIndexStorage: UInt16
  /// A ``ValueTrigger`` of the key's own value type, which a set delivers to without boxing.
  @usableFromInline final let isTyped: Bool
  @usableFromInline final let wantsOld: Bool
  @usableFromInline final let wantsNew: Bool
  @usableFromInline final let wantsPrior: Bool
  /// Gets a change in flight when it was registered (see
  /// ``ObservingOptions/takesChangesInFlight`` and ``ChangeFrame``).
  final let takesChangesInFlight: Bool
  /// The registration's state in its registrar's machine: active, until ``RegistrarStateMachine``
  /// ends it (a removal, or the end of the object), under the object's property lock. Read
  /// without a lock by deliveries, before each call of the handler.
  @usableFromInline final let active = Atomic<Bool>(true)

  /// The key's index in its class's table.
  final var keyIndex: Int { Int(keyIndexStorage) }

  init(
    order: UInt64, context: RegistrarContext, keyIndex: Int, isTyped: Bool,
    options: ObservingOptions
  ) {
    self.order = order
    self.context = context
    keyIndexStorage = UInt16(truncatingIfNeeded: keyIndex)  // The table's limit.
    self.isTyped = isTyped
    wantsOld = options.contains(.old)
    wantsNew = options.contains(.new)
    wantsPrior = options.contains(.prior)
    takesChangesInFlight = options.contains(.takesChangesInFlight)
  }

  @inlinable final var isActive: Bool {
    #if DEBUG
      Scheduling.reach(.step("Trigger.isActive"))
    #endif
    return active.load(ordering: .acquiring)
  }

  /// Ends the registration: only ``RegistrarStateMachine``'s transitions call it.
  final func end() { active.store(false, ordering: .releasing) }

  /// Ends the trigger and takes it out of its registrar. Returns the lists that deliveries in
  /// flight still iterate with it (see ``waitForDeliveries(holding:)``), also when it had
  /// ended already, so that every invalidation waits for the same deliveries.
  final func detach() -> (context: RegistrarContext, lists: [ObserverList]) {
    (context, context.remove(self))
  }

  /// For a link of a links observation: the observation, and whether a change through the link
  /// reads the links again; else `nil`.
  var link: (observation: LinksObservation, rereads: Bool)? { nil }

  /// For a link on the root of its observation: the observation, which ends when the root
  /// does; else `nil`.
  var rootedObservation: Observation? { nil }

  /// Delivers a change whose values are boxed as `Any` (manual notification). Only direct
  /// records are delivered this way; links go through their observation.
  func deliverBoxed(
    _ object: AnyObject, kind: KeyValueChangeKind, old: Any?, new: Any?, indexes: IndexSet?,
    isPrior: Bool
  ) {}
}

/// A trigger that takes a change of a key whose value type is `Value` as it is, unboxed: a
/// direct observation of the key, or the leaf link of a typed chain ending in the key.
@usableFromInline
class ValueTrigger<Value>: Trigger, @unchecked Sendable {
  /// Delivers a notification (prior or post) with typed values.
  @usableFromInline func deliver(_ object: AnyObject, _ change: KeyValueChange<Value>) {}
}

/// A direct observation of one declared key, on an object of type `Root`.
@usableFromInline
final class TypedRecord<Root: AnyObject, Value>: ValueTrigger<Value>, @unchecked Sendable {
  let handler: (Root, KeyValueChange<Value>) -> Void

  @usableFromInline
  init(
    context: RegistrarContext, keyIndex: Int, options: ObservingOptions,
    handler: @escaping (Root, KeyValueChange<Value>) -> Void
  ) {
    self.handler = handler
    super.init(
      order: nextRegistrationOrder(), context: context, keyIndex: keyIndex, isTyped: true,
      options: options)
  }

  override func deliver(_ object: AnyObject, _ change: KeyValueChange<Value>) {
    handler(unsafeDowncast(object, to: Root.self), change)
  }

  override func deliverBoxed(
    _ object: AnyObject, kind: KeyValueChangeKind, old: Any?, new: Any?, indexes: IndexSet?,
    isPrior: Bool
  ) {
    let change = KeyValueChange<Value>(
      kind: kind, oldValue: wantsOld ? old.map { $0 as! Value } : nil,
      newValue: wantsNew && !isPrior ? new.map { $0 as! Value } : nil,
      indexes: indexes, isPrior: isPrior)
    handler(unsafeDowncast(object, to: Root.self), change)
  }

  /// Sends the `.initial` notification, counted as a delivery.
  @usableFromInline
  func sendInitial(_ object: Root, _ value: @autoclosure () -> Value) {
    guard isActive else { return }
    let change = KeyValueChange<Value>(kind: .setting, newValue: wantsNew ? value() : nil)
    DeliveryScope.run { handler(object, change) }
  }

  override func invalidate() {
    waitForDeliveries(holding: detach())
  }
}
