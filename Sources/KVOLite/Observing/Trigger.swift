import Foundation
import Synchronization

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
  // @unchecked: the only mutable state is the atomic `isActive` flag; `registrar` and
  // `keyIndex` are written before the trigger is published under the registrar's lock.
  @usableFromInline final let order: UInt64
  /// A direct record (``TypedRecord``) rather than a ``PathLink``.
  @usableFromInline final let isDirect: Bool
  @usableFromInline final let active = Atomic<Bool>(true)
  @usableFromInline final let wantsOld: Bool
  @usableFromInline final let wantsNew: Bool
  @usableFromInline final let wantsPrior: Bool
  @usableFromInline final var keyIndex: Int32 = 0
  /// The registrar whose list holds this trigger; weak, so that it never keeps it alive.
  @usableFromInline final weak var registrar: ObservationRegistrar?

  init(order: UInt64, isDirect: Bool, options: ObservingOptions) {
    self.order = order
    self.isDirect = isDirect
    wantsOld = options.contains(.old)
    wantsNew = options.contains(.new)
    wantsPrior = options.contains(.prior)
  }

  @inlinable final var isActive: Bool { active.load(ordering: .acquiring) }

  /// Marks the trigger inactive; returns whether this call did it (the first caller wins).
  final func deactivate() -> Bool {
    active.exchange(false, ordering: .acquiringAndReleasing)
  }
}

/// A trigger that is itself an observation of exactly one declared key of one object: the
/// common case, delivered without boxing on the fast path of ``Observed``.
@usableFromInline
class DirectRecord: Trigger, @unchecked Sendable {
  init(options: ObservingOptions) {
    super.init(
      order: registrationCounter.add(1, ordering: .relaxed).newValue, isDirect: true,
      options: options)
  }

  /// Delivers a change whose values are boxed as `Any` (the general path).
  func deliverBoxed(
    _ object: AnyObject, kind: KeyValueChangeKind, old: Any?, new: Any?,
    indexes: IndexSet?, isPrior: Bool
  ) {
    fatalError("abstract")
  }
}

/// A direct observation of a key whose value type is `Value`, on an object of type `Root`.
@usableFromInline
final class TypedRecord<Root: AnyObject, Value>: DirectRecord, @unchecked Sendable {
  @usableFromInline let handler: (Root, KeyValueChange<Value>) -> Void

  init(options: ObservingOptions, handler: @escaping (Root, KeyValueChange<Value>) -> Void) {
    self.handler = handler
    super.init(options: options)
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
    guard deactivate() else { return }
    registrar?.remove(self)
  }
}
