import KVOLiteLocking

/// Makes a stored property of a ``KeyValueObservable`` class observable, in one line.
///
///     @Observed var firstName = ""
///
/// Every set notifies the key's observers, even when the new value equals the old one
/// (filtering is `removeDuplicates()`'s job), unless the property says otherwise,
/// `@Observed(notifiesAutomatically: false)`, or the key was declared with
/// `notifiesAutomatically: false`. Notifications are delivered after the value is stored, on
/// the setting thread, with no lock held.
///
/// Every get and set takes the object's lock (a striped `PropertyLock`) for the duration of the
/// copy, so reads and writes are safe from any thread. A set of a property nobody observes is
/// that lock, a move of the new value and the release of the old one (after the lock): no
/// registrar, no key path, no allocation. The old value is always released after unlocking,
/// since releasing it may run a `deinit`.
///
/// The property is a key of its class, named after the property, its role taken from its type
/// (see ``KeyValueObservable``); nothing else needs declaring. Key-value coding reads and writes
/// it through its accessors (so that a subclass's override runs): the first get or set on each
/// object hands the property's key path over for that, once, after unlocking.
///
/// In a class that is also `Observation.Observable` (declared where the class adopts
/// ``KeyValueObservable``), every get is reported to Swift Observation (`access`) and every set
/// too, `willSet` before the value is stored and `didSet` after, with no lock held; in any other
/// class those calls compile to nothing.
@propertyWrapper
public struct Observed<Value> {
  /// The property's observation state (see ``StorageState``). First, so that the registrar
  /// finds it at the storage's address.
  @usableFromInline var state: UInt32 = StorageState.initial(notifiesAutomatically: true)
  @usableFromInline var value: Value

  /// Creates the storage with its initial value (which notifies nobody).
  @inlinable
  public init(wrappedValue: Value) {
    value = wrappedValue
  }

  /// Creates the storage of a property that says at its declaration whether its sets notify:
  /// `@Observed(notifiesAutomatically: false) var status = "open"` notifies only when the class
  /// calls ``KeyValueObservable/willChangeValue(for:)`` and
  /// ``KeyValueObservable/didChangeValue(for:)`` itself, as a key declared with
  /// `notifiesAutomatically: false` does (Foundation's `automaticallyNotifiesObservers(forKey:)`
  /// returning `false`): sets, key-value coding and proxy mutations notify nobody; `.initial`
  /// notifications are still sent.
  @inlinable
  public init(wrappedValue: Value, notifiesAutomatically: Bool) {
    state = StorageState.initial(notifiesAutomatically: notifiesAutomatically)
    value = wrappedValue
  }

  /// Not available: `@Observed` works only on properties of ``KeyValueObservable`` classes.
  @available(*, unavailable, message: "@Observed is only available on KeyValueObservable classes")
  public var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }  // swift-format-ignore
  }

  /// The accessor the compiler calls for `object.property`.
  ///
  /// Always inlined, so that the key paths stay compile-time constants (a key path handed to a
  /// function that is not inlined is instantiated on every call, which costs more than the
  /// whole set). The slow path takes the storage's address instead.
  @inlinable
  public static subscript<Root: KeyValueObservable>(
    _enclosingInstance object: Root,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Root, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Root, Observed<Value>>
  ) -> Value {
    @inline(__always) get {
      let base = Unmanaged.passUnretained(object).toOpaque()
      let lock = PropertyLock(for: base)
      lock.lock()
      let storage = address(of: storageKeyPath, in: object)
      if _slowPath(StorageProbe.isActive) {
        StorageProbe.report(
          storage, of: object, keyPath: wrappedKeyPath, storageKeyPath: storageKeyPath)
      }
      let state = storage.pointee.state
      // The first get or set on each object hands the property's accessors over (for
      // key-value coding to call them), after unlocking.
      let pending = state & StorageState.accessorsPending != 0
      if _slowPath(pending) { storage.pointee.state = state & ~StorageState.accessorsPending }
      let value = storage.pointee.value
      lock.unlock()
      if _slowPath(pending) {
        AccessorRegistry.handOver(
          wrappedKeyPath, of: object, offset: UnsafeRawPointer(base).distance(to: storage))
      }
      // Swift Observation's read (nothing unless the class is `Observable`).
      Root._observedRead(object, wrappedKeyPath)
      return value
    }
    @inline(__always) set {
      // Swift Observation's will and did (nothing unless the class is `Observable`).
      Root._observedWillSet(object, wrappedKeyPath)
      let owner = Unmanaged.passUnretained(object)
      let lock = PropertyLock(for: owner.toOpaque())
      lock.lock()
      let storage = address(of: storageKeyPath, in: object)
      if _slowPath(storage.pointee.state & StorageState.slowSet != 0) {
        setSlowly(newValue, owner, storage, lock, wrappedKeyPath)
      } else {
        let old = exchange(storage, newValue)
        lock.unlock()
        _ = old  // Released here, after unlocking.
      }
      Root._observedDidSet(object, wrappedKeyPath)
    }
  }

  /// A set that is not only a move, entered with the object's lock held: hands the property's
  /// accessors over if no get or set did on this object yet, and stores `newValue`, notifying
  /// the key's observers if it has any (see ``setObserved(_:_:_:_:)``). Unlocks.
  @inlinable @inline(__always)
  static func setSlowly<Root: KeyValueObservable>(
    _ newValue: __owned Value, _ owner: Unmanaged<Root>,
    _ storage: UnsafeMutablePointer<Observed<Value>>, _ lock: PropertyLock,
    _ wrappedKeyPath: ReferenceWritableKeyPath<Root, Value>
  ) {
    let state = storage.pointee.state
    let pending = state & StorageState.accessorsPending != 0
    if _slowPath(pending) { storage.pointee.state = state & ~StorageState.accessorsPending }
    setObserved(owner, storage, lock, newValue)
    if _slowPath(pending) {
      let base = UnsafeRawPointer(owner.toOpaque())
      owner._withUnsafeGuaranteedRef {
        AccessorRegistry.handOver(
          wrappedKeyPath, of: $0, offset: base.distance(to: UnsafeRawPointer(storage)))
      }
    }
  }

  /// The address of the storage in `object`. Call with the object's lock held: the projection
  /// is an exclusive access to the property.
  ///
  /// The access ends before the address is used, and nothing but an unretained reference to
  /// `object` is used after it: that keeps the compiler from retaining `object` around the set
  /// (the caller keeps it alive for the whole call). The address of a stored property of a
  /// class is its place in the object, stable while the object lives.
  @inlinable @inline(__always)
  static func address<Root: AnyObject>(
    of storageKeyPath: ReferenceWritableKeyPath<Root, Observed<Value>>, in object: Root
  ) -> UnsafeMutablePointer<Observed<Value>> {
    withUnsafeMutablePointer(to: &object[keyPath: storageKeyPath]) { $0 }
  }

  /// Stores `newValue` and returns the value it replaced, moving both (no copy). Call with the
  /// lock held; release the result after unlocking.
  @inlinable @inline(__always)
  static func exchange(_ storage: UnsafeMutablePointer<Observed<Value>>, _ newValue: __owned Value)
    -> Value
  {
    let value =
      (UnsafeMutableRawPointer(storage) + MemoryLayout<Observed<Value>>.offset(of: \.value)!)
      .assumingMemoryBound(to: Value.self)
    let old = value.move()
    value.initialize(to: newValue)
    return old
  }
}
