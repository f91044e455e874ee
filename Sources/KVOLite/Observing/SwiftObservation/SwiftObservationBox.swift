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
/// Mutations that store without the setter (``KeyValueArray``'s) find the property's key path
/// by its storage's offset in the notifiers that the first read of each property of each class
/// records.
///
/// - Thread safety: Swift's registrar is thread-safe; the box is published once with a
///   compare-and-swap; the notifiers are under a lock, and no user code runs under it (Swift's
///   registrar calls `onChange` handlers, which run after it is released).
/// - Lifetime: the object's registrar context holds the box; the box holds no object.
@usableFromInline
final class SwiftObservationBox: Sendable {
  /// Swift Observation's registrar of the object.
  let registrar = Observation::ObservationRegistrar()

  init() {}

  /// Notifies Swift's registrar that the property it stands for will change or did change.
  /// A class rather than a closure: the key path it keeps is immutable, so it is shared across
  /// threads (key paths are not `Sendable`).
  class Notifier: @unchecked Sendable {
    func notify(_ object: AnyObject, _ box: SwiftObservationBox, will: Bool) {}
  }

  /// The ``Notifier`` of `keyPath`.
  final class TypedNotifier<Subject: KeyValueObservable & Observable, Member>: Notifier,
    @unchecked Sendable
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

  /// A property of a class: the object's dynamic class and the storage's offset in it.
  private struct Place: Hashable {
    let type: ObjectIdentifier
    let offset: Int
  }

  private static let notifiersLock = Lock()
  /// Guarded by `notifiersLock`.
  nonisolated(unsafe) private static var notifiers: [Place: Notifier] = [:]

  // MARK: - The hooks' work

  /// Reports a read of `keyPath` (an ``Observed`` property stored at `storage`) to `object`'s
  /// Swift registrar, creating it if this is the object's first tracked read; on the first read
  /// of this property of this object, records how to notify its changes by offset.
  @usableFromInline
  static func read<Subject: KeyValueObservable & Observable, Member>(
    _ object: Subject, _ keyPath: KeyPath<Subject, Member>, storage: UnsafeRawPointer,
    first: Bool
  ) {
    let box = box(of: object)
    box.registrar.access(object, keyPath: keyPath)
    guard first else { return }
    let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    let place = Place(type: ObjectIdentifier(type(of: object)), offset: base.distance(to: storage))
    let notifier = TypedNotifier(keyPath)
    notifiersLock.withLock {
      if notifiers[place] == nil { notifiers[place] = notifier }
    }
  }

  /// Reports that `keyPath` of `object` will change (before it is stored), if anything ever
  /// read a property of `object` (before that, nothing can be tracking it).
  @usableFromInline
  static func willSet<Subject: KeyValueObservable & Observable, Member>(
    _ object: Subject, _ keyPath: KeyPath<Subject, Member>
  ) {
    guard let box = existingBox(of: object) else { return }
    box.registrar.willSet(object, keyPath: keyPath)
  }

  /// Reports that `keyPath` of `object` changed (after it was stored).
  @usableFromInline
  static func didSet<Subject: KeyValueObservable & Observable, Member>(
    _ object: Subject, _ keyPath: KeyPath<Subject, Member>
  ) {
    guard let box = existingBox(of: object) else { return }
    box.registrar.didSet(object, keyPath: keyPath)
  }

  /// Reports a change of the ``Observed`` property stored at `offset` in `object` made without
  /// its setter (will-time if `will`, else did-time). Nothing if no read of that property of an
  /// object of this class was ever tracked.
  @usableFromInline
  static func storageChange(of object: some KeyValueObservable, offset: Int, will: Bool) {
    guard let box = existingBox(of: object) else { return }
    let place = Place(type: ObjectIdentifier(type(of: object)), offset: offset)
    guard let notifier = notifiersLock.withLock({ notifiers[place] }) else { return }
    notifier.notify(object, box, will: will)
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
