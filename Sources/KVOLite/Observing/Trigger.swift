import Foundation
import Synchronization

/// The global registration counter: observations are ordered by it.
let registrationCounter = Atomic<UInt64>(0)

/// An entry in a registrar's list for one key: something to notify when that key changes.
///
/// Lists are kept sorted by ``order``, the registration order of the observation the entry
/// belongs to, so that delivery in list order is delivery in registration order.
@usableFromInline
class Trigger: @unchecked Sendable {
  // @unchecked: the only mutable state is the atomic `isActive` flag; `registrar` and
  // `keyIndex` are written before the trigger is published under the registrar's lock.
  @usableFromInline final let order: UInt64
  /// A direct record (``TypedRecord``) rather than a ``PathLink``.
  @usableFromInline final let isDirect: Bool
  @usableFromInline final let active = Atomic<Bool>(true)
  /// The registrar whose list holds this trigger; weak, so that it never keeps it alive.
  @usableFromInline final weak var registrar: ObservationRegistrar?
  @usableFromInline final var keyIndex = 0

  init(order: UInt64, isDirect: Bool) {
    self.order = order
    self.isDirect = isDirect
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
  @usableFromInline final let wantsOld: Bool
  @usableFromInline final let wantsNew: Bool
  @usableFromInline final let wantsPrior: Bool

  init(options: ObservingOptions) {
    wantsOld = options.contains(.old)
    wantsNew = options.contains(.new)
    wantsPrior = options.contains(.prior)
    super.init(
      order: registrationCounter.add(1, ordering: .relaxed).newValue, isDirect: true)
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
final class TypedRecord<Root: AnyObject, Value>: DirectRecord, Invalidating, @unchecked Sendable {
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

  func invalidate() {
    guard deactivate() else { return }
    registrar?.remove(self)
  }
}

/// Something an ``ObservationToken`` can cancel.
protocol Invalidating: AnyObject, Sendable {
  /// Ends the observation. Idempotent and safe from any thread and from inside callbacks.
  func invalidate()
}
