/// Makes a stored property of a ``KeyValueObservable`` class observable, in one line.
///
///     @Observed var firstName = ""
///
/// Every set notifies the key's observers, even when the new value equals the old one
/// (filtering is `removeDuplicates()`'s job), unless the key was declared with
/// `notifiesAutomatically: false`. Sets and gets take the object's lock for the duration of the
/// copy, so they are safe from any thread; notifications are delivered after the value is
/// stored, on the setting thread, with no lock held.
///
/// The property must also be declared in the type's ``KeyValueObservable/observableKeys``:
/// that declaration gives it its name and its role.
@propertyWrapper
public struct Observed<Value> {
  @usableFromInline var value: Value
  /// The index of the property's key in its type's table, found on first use.
  @usableFromInline var keyIndex: Int32 = KeyIndex.unresolved

  /// Creates the storage with its initial value (which notifies nobody).
  @inlinable
  public init(wrappedValue: Value) {
    value = wrappedValue
  }

  /// Not available: `@Observed` works only on properties of ``KeyValueObservable`` classes.
  @available(*, unavailable, message: "@Observed is only available on KeyValueObservable classes")
  public var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }  // swift-format-ignore
  }

  /// The accessor the compiler calls for `object.property`.
  @inlinable
  public static subscript<Root: KeyValueObservable>(
    _enclosingInstance object: Root,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Root, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Root, Observed<Value>>
  ) -> Value {
    get {
      let registrar = object.observationRegistrar
      registrar.lock.lock()
      let value = object[keyPath: storageKeyPath].value
      registrar.lock.unlock()
      return value
    }
    set {
      let registrar = object.observationRegistrar
      registrar.lock.lock()
      let index = object[keyPath: storageKeyPath].keyIndex
      // The fast path: a resolved key that nobody observes is one store under the lock.
      if index >= 0, !registrar.isObserved(Int(index)) {
        object[keyPath: storageKeyPath].value = newValue
        registrar.lock.unlock()
        return
      }
      setObserved(object, wrappedKeyPath, storageKeyPath, newValue, index)
    }
  }

  /// The rest of a set, entered with the lock held: the key is observed, or not resolved yet.
  @usableFromInline @inline(never)
  static func setObserved<Root: KeyValueObservable>(
    _ object: Root, _ wrappedKeyPath: ReferenceWritableKeyPath<Root, Value>,
    _ storageKeyPath: ReferenceWritableKeyPath<Root, Observed<Value>>, _ newValue: Value,
    _ knownIndex: Int32
  ) {
    let registrar = object.observationRegistrar
    var index = knownIndex
    if index == KeyIndex.unresolved {
      // Resolve outside the lock: the first access to `observableKeys` runs its initializer.
      registrar.lock.unlock()
      index = KeyIndex.resolve(wrappedKeyPath, in: Root.observableKeys.table)
      registrar.lock.lock()
      object[keyPath: storageKeyPath].keyIndex = index
    }
    registrar.setLocked(
      object, key: Int(index), newValue: newValue,
      read: { object[keyPath: storageKeyPath].value },
      write: { object[keyPath: storageKeyPath].value = $0 })
  }
}

/// Sentinels for ``Observed``'s cached key index.
@usableFromInline
enum KeyIndex {
  /// Not looked up yet.
  @usableFromInline static let unresolved: Int32 = -1
  /// Looked up, and not declared: nobody can observe it, so it never notifies.
  @usableFromInline static let undeclared: Int32 = .max

  static func resolve(_ keyPath: AnyKeyPath, in table: KeyTable) -> Int32 {
    table.indexByKeyPath[keyPath].map(Int32.init) ?? undeclared
  }
}
