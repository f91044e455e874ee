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
  /// The index of the property's key in its type's table, written by the registrar when the
  /// key is first observed on this object. Until then (`-1`) nobody observes it.
  @usableFromInline var keyIndex: Int32 = -1

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

  // The accessors never pass a key path on: a key path handed to a function that is not inlined
  // must be instantiated on every call, which would cost more than the whole fast path. The
  // slow path reaches the storage through the offset the registrar recorded instead.

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
      if _slowPath(registrar.probingThread != 0) {
        withUnsafeMutablePointer(to: &object[keyPath: storageKeyPath]) {
          registrar.recordProbe(object, storage: UnsafeRawPointer($0), valueType: Value.self)
        }
      }
      let value = object[keyPath: storageKeyPath].value
      registrar.lock.unlock()
      return value
    }
    set {
      let registrar = object.observationRegistrar
      registrar.lock.lock()
      let index = Int(object[keyPath: storageKeyPath].keyIndex)
      // The fast path: a key nobody observes is one store under the lock.
      if index < 0 || !registrar.isObserved(index) {
        object[keyPath: storageKeyPath].value = newValue
        registrar.lock.unlock()
        return
      }
      setObserved(object, index, newValue)
    }
  }

  /// The rest of a set of an observed key, entered with the lock held. Inlinable so that it is
  /// specialized for the property's type in the client; never inlined, to keep setters small.
  @inlinable @inline(never)
  static func setObserved<Root: KeyValueObservable>(_ object: Root, _ index: Int, _ newValue: Value) {
    let registrar = object.observationRegistrar
    let storage = registrar.storage(of: object, key: index, as: Observed<Value>.self)
    registrar.setLocked(
      object, key: index, newValue: newValue,
      read: { storage.pointee.value },
      write: { storage.pointee.value = $0 })
  }
}
