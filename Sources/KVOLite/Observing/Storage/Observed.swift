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
/// A mutation in place (`items.append(x)`, `items[0] += 1`, `name += "!"`) of a property that
/// nothing observes, in a class that is not `Observable`, made outside a Swift concurrency task,
/// mutates the stored value itself, whatever its type, as with a plain stored property: an
/// array grows without being copied. (In a task the mutation may be suspended at an `await`
/// and resume on another thread, so it copies.)
/// The lock is not held while the mutation runs; other threads' accesses of the property wait
/// for it to end, and an access of the property from inside its own mutation (a
/// `removeAll(where:)` closure that reads it) stops the program, as Swift's exclusivity check
/// does for a stored property. An observed property, one of an `Observable` class, or one with
/// a `didSet` of its own or a subclass's override, is read, mutated and set: its observers hear
/// one setting, with the whole old and new values.
///
/// The property is a key of its class, named after the property, its role taken from its type
/// (see ``KeyValueObservable``); nothing else needs declaring. Key-value coding reads and writes
/// it through its accessors (so that a subclass's override runs): the first get or set on each
/// object hands the property's key path over for that, once, after unlocking.
///
/// In a class that is also `Observation.Observable` (declared where the class adopts
/// ``KeyValueObservable``), every get is reported to Swift Observation (`access`) and every set
/// that changes the value as `@Observable` decides (`==` for an `Equatable` type, `===` for a
/// class, every set otherwise), `willSet` before the value is stored and `didSet` after, with no
/// lock held; in any other class those calls compile to nothing. KVOLite's own observers (and
/// Combine's) hear of every set, equal or not.
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
    @inline(__always) get { wrappedGet(object, wrappedKeyPath, storageKeyPath) }
    @inline(__always) set { wrappedSet(newValue, object, wrappedKeyPath, storageKeyPath) }
    // In place (`items.append(x)`, `items[i].weight = w`, `count += 1`): when nothing observes
    // the property and its class is not `Observable`, the value is moved out of the storage,
    // mutated where it is, and moved back, so an array grows without being copied. The lock is
    // not held while the caller's code runs (a closure, an element's `deinit`): the storage is
    // marked modifying instead, and every other access of it waits for the mark to go. Any
    // other property — observed, tracked by a reading that finds inputs, of an `Observable`
    // class, or one this thread is already inside eight in-place mutations deep — is read,
    // mutated and set, as a property with a getter and setter is.
    @inline(__always) _modify {
      let owner = Unmanaged.passUnretained(object)
      let lock = PropertyLock(for: owner.toOpaque())
      // Not in a task: its mutation may be suspended at an `await` (`await f(&model.items)`)
      // and resume on another thread, while other accesses would wait on the threads the task
      // needs to resume.
      let inTask = ThreadIdentity.isRunningTask
      lock.lock()
      let storage = address(of: storageKeyPath, in: object)
      let state = storage.pointee.state
      let inPlace =
        !Root._tracksSwiftObservation && state & StorageState.slowSet == 0 && !inTask
        && ThreadIdentity.beginMutatingInPlace(storage)
      var value: Value
      if inPlace {
        storage.pointee.state = state | StorageState.modifying
        value = moveOut(storage)
        lock.unlock()
      } else {
        lock.unlock()
        value = wrappedGet(object, wrappedKeyPath, storageKeyPath)
      }
      // One yield, so that the optimizer can inline the accessor (and keep the key paths
      // constants). Written back even when the mutation throws, as an `inout` access is.
      defer {
        if inPlace {
          lock.lock()
          moveIn(storage, value)
          storage.pointee.state &= ~StorageState.modifying
          lock.unlock()
          ThreadIdentity.endMutatingInPlace()
        } else {
          wrappedSet(value, object, wrappedKeyPath, storageKeyPath)
        }
      }
      yield &value
    }
  }

  /// The getter's work: reads the value under the object's lock (the slow path reports the
  /// read to a probe, waits for an in-place mutation, hands the accessors over), then reports
  /// it to Swift Observation. Always inlined, so that the key paths stay constants.
  @inlinable @inline(__always)
  static func wrappedGet<Root: KeyValueObservable>(
    _ object: Root, _ wrappedKeyPath: ReferenceWritableKeyPath<Root, Value>,
    _ storageKeyPath: ReferenceWritableKeyPath<Root, Observed<Value>>
  ) -> Value {
    let lock = PropertyLock(for: Unmanaged.passUnretained(object).toOpaque())
    lock.lock()
    let storage = address(of: storageKeyPath, in: object)
    let value: Value
    if _slowPath(
      StorageProbe.isActive
        || storage.pointee.state & (StorageState.accessorsPending | StorageState.modifying) != 0)
    {
      value = getReporting(storage, of: object, lock) { wrappedKeyPath }
    } else {
      value = storage.pointee.value
      lock.unlock()
    }
    // Swift Observation's read (nothing unless the class is `Observable`).
    Root._observedRead(object, wrappedKeyPath)
    return value
  }

  /// The setter's work: stores `newValue` under the object's lock, notifying observers on the
  /// slow path, and tells Swift Observation. Always inlined, so that the key paths stay
  /// constants.
  @inlinable @inline(__always)
  static func wrappedSet<Root: KeyValueObservable>(
    _ newValue: Value, _ object: Root, _ wrappedKeyPath: ReferenceWritableKeyPath<Root, Value>,
    _ storageKeyPath: ReferenceWritableKeyPath<Root, Observed<Value>>
  ) {
    let owner = Unmanaged.passUnretained(object)
    let lock = PropertyLock(for: owner.toOpaque())
    // Swift Observation's will and did: nothing unless the class is `Observable`, and then
    // only for a value that changes, compared with the one stored outside the lock.
    // (Asked only of such a class: the key paths stay compile-time constants in any other.)
    // The storage's address is taken with the lock held, every time: taking it is an access of
    // the storage property, which the thread sanitizer checks against the others.
    let reported =
      Root._tracksSwiftObservation
      ? Root._observedWillSet(object, wrappedKeyPath, to: newValue) {
        lock.lock()
        let value = address(of: storageKeyPath, in: object).pointee.value
        lock.unlock()
        return value
      } : nil
    lock.lock()
    let storage = address(of: storageKeyPath, in: object)
    let state = storage.pointee.state
    guard _slowPath(state & StorageState.slowSet != 0) else {
      let old = exchange(storage, newValue)
      lock.unlock()
      _ = old  // Released here, after unlocking.
      if let reported { Root._observedDidSet(object, wrappedKeyPath, reportedTo: reported) }
      return
    }
    // The first get or set on each object hands the property's accessors over, after
    // unlocking; the rest of a set that is not only a move: see `setObserved`.
    if _slowPath(state & StorageState.accessorsPending != 0) {
      storage.pointee.state = state & ~StorageState.accessorsPending
      setObserved(owner, storage, lock, newValue)
      handOver(
        of: object, offset: UnsafeRawPointer(owner.toOpaque()).distance(to: storage)
      ) { wrappedKeyPath }
    } else {
      setObserved(owner, storage, lock, newValue)
    }
    if let reported { Root._observedDidSet(object, wrappedKeyPath, reportedTo: reported) }
  }

  // The accessors' key paths are compile-time constants only while nothing but inlined code
  // uses them: a key path handed to a call is made on every run of the accessor, whichever
  // branch the call is in (two runtime calls, more than a whole set costs). So their slow
  // paths take them as closures, which the compiler specializes into copies of the functions
  // below in the client's module: the key path is then made inside the copy, when it runs.

  /// Hands the property's accessors over (see ``AccessorRegistry``): the first set of it on
  /// `object`, after unlocking.
  @inlinable @inline(never)
  static func handOver<Root: KeyValueObservable>(
    of object: Root, offset: Int, _ keyPath: () -> ReferenceWritableKeyPath<Root, Value>
  ) {
    AccessorRegistry.handOver(keyPath(), of: object, offset: offset)
  }

  /// The rest of a get that a probe sees or that is the first on `object` (entered with the
  /// object's lock held): reports the get to this thread's probe, if it is probing (see
  /// ``StorageProbe``), reads the value and unlocks, and hands the accessors over if no get
  /// or set of the property on `object` has yet.
  @inlinable @inline(never)
  static func getReporting<Root: KeyValueObservable>(
    _ storage: UnsafeMutablePointer<Observed<Value>>, of object: Root, _ lock: PropertyLock,
    _ keyPath: () -> ReferenceWritableKeyPath<Root, Value>
  ) -> Value {
    StorageState.waitWhileModified(UnsafeMutableRawPointer(storage), lock)
    let wrappedKeyPath = keyPath()
    if StorageProbe.isActive { StorageProbe.report(storage, of: object, keyPath: wrappedKeyPath) }
    let state = storage.pointee.state
    let pending = state & StorageState.accessorsPending != 0
    if pending { storage.pointee.state = state & ~StorageState.accessorsPending }
    let value = storage.pointee.value
    lock.unlock()
    if pending {
      let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
      AccessorRegistry.handOver(wrappedKeyPath, of: object, offset: base.distance(to: storage))
    }
    return value
  }

  /// The address of the storage in `object`, for use with the object's lock held.
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

  /// The address of the value in `storage`.
  @inlinable @inline(__always)
  static func valueAddress(_ storage: UnsafeMutablePointer<Observed<Value>>)
    -> UnsafeMutablePointer<Value>
  {
    (UnsafeMutableRawPointer(storage) + MemoryLayout<Observed<Value>>.offset(of: \.value)!)
      .assumingMemoryBound(to: Value.self)
  }

  /// Moves the value out of `storage`, leaving it uninitialized, for an in-place mutation
  /// (with the lock held and the storage marked modifying).
  @inlinable @inline(__always)
  static func moveOut(_ storage: UnsafeMutablePointer<Observed<Value>>) -> Value {
    valueAddress(storage).move()
  }

  /// Moves `value` back into `storage`, which ``moveOut(_:)`` left uninitialized (with the
  /// lock held).
  @inlinable @inline(__always)
  static func moveIn(_ storage: UnsafeMutablePointer<Observed<Value>>, _ value: __owned Value) {
    valueAddress(storage).initialize(to: value)
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
