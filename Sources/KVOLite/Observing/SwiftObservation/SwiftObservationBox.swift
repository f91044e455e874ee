import KVOLiteLocking
import Observation

/// What Swift Observation knows of one object whose class conforms to `Observable`: Swift's
/// registrar (`Observation::ObservationRegistrar`, not KVOLite's ``ObservationRegistrar``),
/// created on the first read of an ``Observed`` property and kept in the object's
/// `RegistrarContext`, so that a class that is not `Observable` carries nothing for it.
///
/// ``Observed``'s getter reports each read to Swift's registrar (`access`), its setter each set
/// (`willSet` before the value is stored, `didSet` after), through
/// ``KeyValueObservable``'s tracking hooks, whose witnesses for an `Observable` class call the
/// functions below and whose witnesses for any other class do nothing (and are inlined away).
/// Mutations that store without the setter (``KeyValueArray``'s) tell it through the
/// property's ``SwiftObservationNotifier``, kept with its accessors (``AccessorRegistry``).
///
/// - Thread safety: Swift's registrar is thread-safe; the box is published once with a
///   compare-and-swap.
/// - Lifetime: the object's registrar context holds the box; the box holds no object.
@usableFromInline
final class SwiftObservationBox: Sendable {
  /// Swift Observation's registrar of the object.
  let registrar = Observation::ObservationRegistrar()

  init() {}

  // MARK: - The hooks' work

  /// Reports a read of `keyPath` to `object`'s Swift registrar, creating it if this is the
  /// object's first tracked read.
  @usableFromInline
  static func read<Subject: KeyValueObservable & Observable, Member>(
    _ object: Subject, _ keyPath: KeyPath<Subject, Member>
  ) {
    box(of: object).registrar.access(object, keyPath: keyPath)
  }

  /// The box of `object`, if a read of it was ever tracked (before that, nothing can be
  /// tracking it, and a set reports nothing).
  @usableFromInline
  static func existing(of object: some KeyValueObservable) -> SwiftObservationBox? {
    existingBox(of: object)
  }

  /// Reports that `keyPath` of `object` will change (before the value is stored).
  @usableFromInline
  func willSet<Subject: KeyValueObservable & Observable, Member>(
    _ object: Subject, _ keyPath: KeyPath<Subject, Member>
  ) {
    registrar.willSet(object, keyPath: keyPath)
  }

  /// Reports that `keyPath` of `object` changed (after it was stored).
  @usableFromInline
  func didSet<Subject: KeyValueObservable & Observable, Member>(
    _ object: Subject, _ keyPath: KeyPath<Subject, Member>
  ) {
    registrar.didSet(object, keyPath: keyPath)
  }

  /// Reports a change of an ``Observed`` property of `object` made without its setter
  /// (will-time if `will`, else did-time), through the property's `notifier` (see
  /// ``AccessorRegistry``). Nothing if no get or set of the property ever ran (then nothing
  /// can be tracking it), or if no read of `object` was ever tracked.
  static func storageChange(
    of object: some KeyValueObservable, notifier: SwiftObservationNotifier?, will: Bool
  ) {
    guard let notifier, let box = existingBox(of: object) else { return }
    notifier.notify(object, box, will: will)
  }

  /// ``storageChange(of:notifier:will:)`` for key `index` of `object`'s class.
  @usableFromInline
  static func storageChange(of object: some KeyValueObservable, key index: Int, will: Bool) {
    let notifier = KeyTable.of(object).entries[index].accessors?.notifier
    storageChange(of: object, notifier: notifier, will: will)
  }

  /// Stops a class that is `Observable` while its tracking hooks are those of a class that is
  /// not: it conformed to `Observable` below the class that adopted ``KeyValueObservable``, so
  /// the root class's (do-nothing) hooks are the ones that run. Called on the first read of each
  /// property of each object of a class whose hooks do not track.
  @usableFromInline
  static func checkNotObservable(_ object: AnyObject) {
    guard object is any Observable else { return }
    fatalError(
      """
      KVOLite: \(type(of: object)) conforms to Observable, but the class that adopts \
      KeyValueObservable above it does not, so Swift Observation would never see its \
      properties change. Declare the Observable conformance on the class that adopts \
      KeyValueObservable.
      """)
  }

  // MARK: - The box

  /// The box of `object`, created (with its registrar context) on first use.
  private static func box(of object: some KeyValueObservable) -> SwiftObservationBox {
    if let existing = existingBox(of: object) { return existing }
    return object.observationRegistrar.context(of: object).swiftObservationBox()
  }

  /// The box of `object`, if a read was ever tracked.
  private static func existingBox(of object: some KeyValueObservable) -> SwiftObservationBox? {
    object.observationRegistrar.existingContextUnretained?._withUnsafeGuaranteedRef {
      $0.existingSwiftObservationBox
    }
  }
}

/// Notifies Swift's registrar that the property it stands for will change or did change: kept
/// with the property's accessors (``AccessorRegistry``) for an `Observable` class, for the
/// mutations that store without the setter. A class rather than a closure: the key path it
/// keeps is immutable, so it is shared across threads (key paths are not `Sendable`).
class SwiftObservationNotifier: @unchecked Sendable {
  func notify(_ object: AnyObject, _ box: SwiftObservationBox, will: Bool) {}
}

/// The ``SwiftObservationNotifier`` of `keyPath`.
final class TypedObservationNotifier<Subject: KeyValueObservable & Observable, Member>:
  SwiftObservationNotifier, @unchecked Sendable
{
  let keyPath: KeyPath<Subject, Member>

  init(_ keyPath: KeyPath<Subject, Member>) { self.keyPath = keyPath }

  override func notify(_ object: AnyObject, _ box: SwiftObservationBox, will: Bool) {
    let subject = unsafeDowncast(object, to: Subject.self)
    if will {
      box.registrar.willSet(subject, keyPath: keyPath)
    } else {
      box.registrar.didSet(subject, keyPath: keyPath)
    }
  }
}
