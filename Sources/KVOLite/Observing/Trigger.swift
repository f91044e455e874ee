import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The states of a ``Trigger``.
@usableFromInline
enum TriggerState {
  @usableFromInline static let active: UInt8 = 0
  @usableFromInline static let removing: UInt8 = 1
  @usableFromInline static let inactive: UInt8 = 2
}

/// The global registration counter: observations are ordered by it.
let registrationCounter = Atomic<UInt64>(0)

/// Something an ``ObservationToken`` can cancel: a direct record or a path observation.
///
/// A class rather than a protocol so that a token holds one word, not an existential.
@usableFromInline
class Observation: @unchecked Sendable {
  /// Ends the observation. Idempotent and safe from any thread and from inside callbacks.
  @usableFromInline func invalidate() {}

  @usableFromInline init() {}
}

/// An entry in a registrar's list for one key: something to notify when that key changes.
///
/// Lists are kept sorted by ``order``, the registration order of the observation the entry
/// belongs to, so that delivery in list order is delivery in registration order.
///
/// The stored properties are laid out to fit a direct record in a 64-byte heap block: the flags
/// and the key index share the word after `order`.
@usableFromInline
class Trigger: Observation, @unchecked Sendable {
  // @unchecked: the only mutable state is the atomic `state`; `registrar` and `keyIndex` are
  // written before the trigger is published under the registrar's lock.
  @usableFromInline final let order: UInt64
  /// A ``ValueTrigger`` of the key's own value type, deliverable by the specialized fast path.
  @usableFromInline final let isTyped: Bool
  /// `active`, then `removing` while a cancellation takes it out of its registrar, then
  /// `inactive`. See `registrar`.
  @usableFromInline final let state = Atomic<UInt8>(TriggerState.active)
  @usableFromInline final let wantsOld: Bool
  @usableFromInline final let wantsNew: Bool
  @usableFromInline final let wantsPrior: Bool
  @usableFromInline final var keyIndex: Int32 = 0
  /// The registrar whose list holds this trigger.
  ///
  /// Unowned and unsafe rather than weak: a weak reference gives the registrar a side table,
  /// and every retain and release of an object with a side table takes a slow path, which the
  /// set path would pay. Safety comes from a handshake instead: only a caller that moved the
  /// trigger from `active` to `removing` touches the registrar, and the registrar's `deinit`
  /// moves every trigger from `active` to `inactive` and waits for those that are `removing`,
  /// so the registrar outlives every such call.
  @usableFromInline final unowned(unsafe) var registrar: ObservationRegistrar? = nil

  @usableFromInline
  init(order: UInt64, isTyped: Bool, options: ObservingOptions) {
    self.order = order
    self.isTyped = isTyped
    wantsOld = options.contains(.old)
    wantsNew = options.contains(.new)
    wantsPrior = options.contains(.prior)
  }

  @inlinable final var isActive: Bool {
    state.load(ordering: .acquiring) == TriggerState.active
  }

  /// Takes the trigger out of its registrar, if it is still active there. Idempotent; safe from
  /// any thread, including while the registrar is being released.
  final func cancel() {
    guard
      state.compareExchange(
        expected: TriggerState.active, desired: TriggerState.removing,
        ordering: .acquiringAndReleasing
      ).exchanged
    else { return }
    registrar?.remove(self)
    state.store(TriggerState.inactive, ordering: .releasing)
  }

  /// Called by the registrar's `deinit`: marks the trigger inactive, or waits until a
  /// cancellation in progress elsewhere has finished with the registrar. Returns whether this
  /// call ended the trigger.
  final func endWithRegistrar() -> Bool {
    while true {
      let (exchanged, current) = state.compareExchange(
        expected: TriggerState.active, desired: TriggerState.inactive,
        ordering: .acquiringAndReleasing)
      if exchanged { return true }
      if current == TriggerState.inactive { return false }
      sched_yield()
    }
  }

  /// For a link of a path observation: the observation, the link's level in its branch, and
  /// whether it is the branch's last key; else `nil`.
  var path: (observation: PathObservation, level: Int, isLeaf: Bool)? { nil }

  /// Delivers a change whose values are boxed as `Any` (the general path). Only direct
  /// records are delivered this way; links go through their observation.
  func deliverBoxed(
    _ object: AnyObject, kind: KeyValueChangeKind, old: Any?, new: Any?, indexes: IndexSet?,
    isPrior: Bool
  ) {}
}

/// A trigger that can take a change of a key whose value type is `Value` as it is, unboxed: a
/// direct observation of the key, or the leaf link of a typed chain ending in the key.
@usableFromInline
class ValueTrigger<Value>: Trigger, @unchecked Sendable {
  /// Delivers a post-change notification from the fast path of ``Observed``.
  @usableFromInline func deliver(_ object: AnyObject, _ change: KeyValueChange<Value>) {}
}

/// A direct observation of one declared key, on an object of type `Root`.
@usableFromInline
final class TypedRecord<Root: AnyObject, Value>: ValueTrigger<Value>, @unchecked Sendable {
  @usableFromInline let handler: (Root, KeyValueChange<Value>) -> Void

  @usableFromInline
  init(options: ObservingOptions, handler: @escaping (Root, KeyValueChange<Value>) -> Void) {
    self.handler = handler
    super.init(
      order: registrationCounter.add(1, ordering: .relaxed).newValue, isTyped: true,
      options: options)
  }

  @usableFromInline override func deliver(_ object: AnyObject, _ change: KeyValueChange<Value>) {
    handler(unsafeDowncast(object, to: Root.self), change)
  }

  override func deliverBoxed(
    _ object: AnyObject, kind: KeyValueChangeKind, old: Any?, new: Any?,
    indexes: IndexSet?, isPrior: Bool
  ) {
    let change = KeyValueChange<Value>(
      kind: kind, oldValue: wantsOld ? old.map { $0 as! Value } : nil,
      newValue: wantsNew && !isPrior ? new.map { $0 as! Value } : nil,
      indexes: indexes, isPrior: isPrior)
    handler(unsafeDowncast(object, to: Root.self), change)
  }

  override func invalidate() {
    cancel()
  }
}
