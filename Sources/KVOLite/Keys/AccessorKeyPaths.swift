import KVOLiteLocking
import Synchronization

/// The key paths of ``Observed`` properties, handed over by their getters: how key-value coding
/// reaches a property's accessors, and with them a subclass's override of the property (its
/// getter, its setter, its `didSet`) or the class's own `didSet`.
///
/// A key found from its property knows where its storage is, not how to call its accessors:
/// the runtime cannot make the key path of a property-wrapped property from its name. The
/// property's own getter has that key path (the compiler hands it to ``Observed``), so the
/// first get on each object hands it over, once per object (a bit of the storage's state
/// says it has), after unlocking. Key-value coding then sets through the key path, which
/// dispatches to the object's class (see ``AccessorSlot``), and reads through it on objects of
/// a subclass (on objects of the declaring class the getter reads the storage, so the storage is
/// read directly); until a getter of the property has run on some object of its class, it reads
/// and writes the storage, as the property's own accessors do but without an override or a
/// `didSet`. An unobserved set takes no part in this: only gets do.
///
/// Thread safety: a lock of its own, taken by no one holding another lock, guards the table; a
/// generation tells those who found nothing whether to look again.
@usableFromInline
enum AccessorKeyPaths {
  /// Where a property's storage is: the class that declares it and the offset in its objects.
  private struct Place: Hashable {
    let type: ObjectIdentifier
    let offset: Int
  }

  private static let lock = Lock()
  /// Guarded by `lock`. Key paths live as long as the process, as key tables do.
  nonisolated(unsafe) private static var keyPaths: [Place: AnyKeyPath] = [:]
  /// Moves each time a property's key path is handed over for the first time.
  static let generation = Atomic<Int>(0)

  /// Called by the getter of an ``Observed`` property of `type` (the class that declares it),
  /// whose storage is at `offset`, the first time it runs on an object. Takes no other lock
  /// and calls nothing.
  @usableFromInline @inline(never)
  static func handOver(_ keyPath: AnyKeyPath, declaredBy type: Any.Type, offset: Int) {
    let place = Place(type: ObjectIdentifier(type), offset: offset)
    lock.lock()
    if keyPaths[place] == nil {
      keyPaths[place] = keyPath
      generation.add(1, ordering: .releasing)
    }
    lock.unlock()
  }

  /// The key path handed over for the property of `type` whose storage is at `offset`, if its
  /// getter has run.
  static func keyPath(declaredBy type: Any.Type, offset: Int) -> AnyKeyPath? {
    let place = Place(type: ObjectIdentifier(type), offset: offset)
    return lock.withLock { keyPaths[place] }
  }
}

/// The key path through which key-value coding reaches the accessors of one found key, once its
/// getter has handed it over (see ``AccessorKeyPaths``).
///
/// Asked for on every key-value coding access of the key: one atomic load once the key path is
/// known, two while it is not (the registry is searched again only when a key path was handed
/// over since the last search).
final class AccessorSlot<Root: AnyObject, Value>: @unchecked Sendable {
  // @unchecked: the state is atomic; key paths are immutable.
  private let offset: Int
  /// `Root` and the key path's type, kept: the closures that use the slot are not specialized,
  /// and naming a generic type there looks its metadata up each time.
  private let root: ObjectIdentifier
  private let keyPathType: ReferenceWritableKeyPath<Root, Value>.Type
  /// The key path once known, type-erased for the same reason (loading it calls no generic
  /// code).
  private let found = OnceReference<AnyKeyPath>()
  private let searched = Atomic<Int>(-1)

  /// The slot of the property of `Root` whose storage is at `offset`.
  init(offset: Int) {
    self.offset = offset
    root = ObjectIdentifier(Root.self)
    keyPathType = ReferenceWritableKeyPath<Root, Value>.self
  }

  /// The property's key path, rooted at the class that declares it (so that applying it to an
  /// object of a subclass calls that subclass's override), or `nil` while no getter of the
  /// property has run.
  var keyPath: ReferenceWritableKeyPath<Root, Value>? {
    if let known = found.load() { return unsafeDowncast(known, to: keyPathType) }
    let generation = AccessorKeyPaths.generation.load(ordering: .acquiring)
    guard searched.load(ordering: .relaxed) != generation else { return nil }
    guard
      let handed = AccessorKeyPaths.keyPath(declaredBy: Root.self, offset: offset),
      handed is ReferenceWritableKeyPath<Root, Value>
    else {
      searched.store(generation, ordering: .relaxed)
      return nil
    }
    return unsafeDowncast(found.storeIfNil(handed), to: keyPathType)
  }

  /// The key path to read `object`'s property with, if reading through the getter can differ
  /// from reading the storage: `object` is of a subclass of `Root`, which may override the
  /// getter (`Root`'s own getter reads the storage, whatever `didSet` it has). `nil` otherwise,
  /// or while the key path is not known.
  func getterKeyPath(for object: AnyObject) -> ReferenceWritableKeyPath<Root, Value>? {
    ObjectIdentifier(type(of: object)) == root ? nil : keyPath
  }
}
