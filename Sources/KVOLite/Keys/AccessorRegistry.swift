import KVOLiteLocking
import Synchronization

/// The accessors of ``Observed`` properties, handed over by their own getters and setters: the
/// one table from a property's place (the class that declares it, and its storage's offset) to
/// its key path, through which key-value coding reaches the property's accessors (and with
/// them a subclass's override, its getter, its setter, its `didSet`, or the class's own
/// `didSet`), and Swift Observation hears of a change made without the setter (a to-many
/// proxy's).
///
/// A key found from its property knows where its storage is, not how to call its accessors:
/// the runtime cannot make the key path of a property-wrapped property from its name. The
/// property's own getter and setter have that key path (the compiler hands it to ``Observed``),
/// so the first get or set on each object hands it over (a bit of the storage's state says
/// whether it has), after unlocking. Key-value coding then sets through the key path, which
/// dispatches to the object's class (see ``AccessorSlot``), and reads through it on objects of
/// a subclass. Until a get or a set of the property has run on some object of its class, it
/// reads and writes the storage, as the property's own accessors do but without an override or
/// a `didSet` (see the Porting article).
///
/// Thread safety: one ``Lock``, taken by no one holding another lock, guards the table; a
/// generation tells those who found nothing whether to look again. Entries live as long as
/// the process, as key tables do.
@usableFromInline
enum AccessorRegistry {
  /// What the registry keeps of one property: its key path (rooted at the class that declares
  /// it) and, for an `Observable` class, how to tell Swift Observation of its changes.
  final class Accessors: @unchecked Sendable {
    // @unchecked: immutable; key paths are immutable.
    let keyPath: AnyKeyPath
    let notifier: SwiftObservationNotifier?

    init(keyPath: AnyKeyPath, notifier: SwiftObservationNotifier?) {
      self.keyPath = keyPath
      self.notifier = notifier
    }
  }

  /// Where a property's storage is: the class that declares it and the offset in its objects.
  private struct Place: Hashable {
    let type: ObjectIdentifier
    let offset: Int
  }

  private static let lock = Lock(schedules: false)
  /// Guarded by `lock`.
  nonisolated(unsafe) private static var table: [Place: Accessors] = [:]
  /// Moves each time a property's accessors are handed over for the first time.
  static let generation = Atomic<Int>(0)

  /// Called by the getter or setter of an ``Observed`` property of `Root` (the class that
  /// declares it), whose storage is at `offset` in `object`, the first time one of them runs
  /// on that object, after unlocking. Also checks that `object`'s class is not `Observable`
  /// below its ``KeyValueObservable`` root (see ``SwiftObservationBox``).
  @usableFromInline @inline(never)
  static func handOver<Root: KeyValueObservable, Value>(
    _ keyPath: ReferenceWritableKeyPath<Root, Value>, of object: Root, offset: Int
  ) {
    if !Root._tracksSwiftObservation { SwiftObservationBox.checkNotObservable(object) }
    let place = Place(type: ObjectIdentifier(Root.self), offset: offset)
    guard lock.withLock({ table[place] }) == nil else { return }
    let accessors = Accessors(
      keyPath: keyPath,
      notifier: Root._observationNotifier(for: keyPath) as? SwiftObservationNotifier)
    lock.withLock {
      guard table[place] == nil else { return }
      table[place] = accessors
      generation.add(1, ordering: .releasing)
    }
  }

  /// The accessors handed over for the property of `type` whose storage is at `offset`, if
  /// a get or a set of it has run.
  static func accessors(declaredBy type: Any.Type, offset: Int) -> Accessors? {
    let place = Place(type: ObjectIdentifier(type), offset: offset)
    return lock.withLock { table[place] }
  }
}

/// The accessors of one found key (see ``AccessorRegistry``), once handed over: the key path
/// key-value coding reaches the property with, and Swift Observation's notifier.
class AnyAccessorSlot: @unchecked Sendable {
  // @unchecked: the state is atomic; what it holds is immutable.
  /// The accessors once known.
  let found = OnceReference<AccessorRegistry.Accessors>()
  private let searched = Atomic<Int>(-1)
  private let declaringType: Any.Type
  private let offset: Int

  init(declaringType: Any.Type, offset: Int) {
    self.declaringType = declaringType
    self.offset = offset
  }

  /// The accessors, or `nil` while no get or set of the property has run. One atomic load once
  /// known, two while not (the registry is searched again only when something was handed over
  /// since the last search).
  final var accessors: AccessorRegistry.Accessors? {
    if let known = found.load() { return known }
    let generation = AccessorRegistry.generation.load(ordering: .acquiring)
    guard searched.load(ordering: .relaxed) != generation else { return nil }
    guard let handed = AccessorRegistry.accessors(declaredBy: declaringType, offset: offset) else {
      searched.store(generation, ordering: .relaxed)
      return nil
    }
    return found.storeIfNil(handed)
  }

  /// How to tell Swift Observation of a change of the property, once known.
  final var notifier: SwiftObservationNotifier? { accessors?.notifier }
}

/// The slot of a found key of `Root` holding a `Value`: its key path typed.
final class AccessorSlot<Root: AnyObject, Value>: AnyAccessorSlot, @unchecked Sendable {
  /// `Root` and the key path's type, kept: the closures that use the slot are not specialized,
  /// and naming a generic type there looks its metadata up each time.
  private let root: ObjectIdentifier
  private let keyPathType: ReferenceWritableKeyPath<Root, Value>.Type

  /// The slot of the property of `Root` whose storage is at `offset`.
  init(offset: Int) {
    root = ObjectIdentifier(Root.self)
    keyPathType = ReferenceWritableKeyPath<Root, Value>.self
    super.init(declaringType: Root.self, offset: offset)
  }

  /// The property's key path, rooted at the class that declares it (so that applying it to an
  /// object of a subclass calls that subclass's override), or `nil` while no get or set of the
  /// property has run.
  var keyPath: ReferenceWritableKeyPath<Root, Value>? {
    guard let accessors else { return nil }
    return unsafeDowncast(accessors.keyPath, to: keyPathType)
  }

  /// The key path to read `object`'s property with, if reading through the getter can differ
  /// from reading the storage: `object` is of a subclass of `Root`, which may override the
  /// getter (`Root`'s own getter reads the storage, whatever `didSet` it has). `nil` otherwise,
  /// or while the key path is not known.
  func getterKeyPath(for object: AnyObject) -> ReferenceWritableKeyPath<Root, Value>? {
    ObjectIdentifier(type(of: object)) == root ? nil : keyPath
  }
}
