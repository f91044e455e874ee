import KVOLiteLocking

/// The slow path of a set: the property is observed.
extension Observed {
  /// Finishes a set that takes the slow path (observed, or tracked by a reading that finds
  /// inputs), entered with the object's lock held: notifies the key's observers around the
  /// write, with the lock released, and moves a tracked property's change counter with the
  /// write.
  ///
  /// Inlinable so that it is specialized for the property's type in the client (no boxing for
  /// typed observers); the part after finding the registrar is never inlined, so that setters
  /// stay small. It takes no lock but the
  /// property lock it was entered with (the observer list is published to it under that lock;
  /// see ``RegistrarContext``), and calls observers only after unlocking it.
  @inlinable @inline(__always)
  static func setObserved<Root: KeyValueObservable>(
    _ owner: Unmanaged<Root>, _ storage: UnsafeMutablePointer<Observed<Value>>,
    _ lock: PropertyLock,
    _ newValue: Value
  ) {
    // Neither is retained: the caller holds the object, which holds its registrar, which holds
    // its context.
    let registrar = owner._withUnsafeGuaranteedRef {
      Unmanaged.passUnretained($0.observationRegistrar)
    }
    setObserved(
      Unmanaged<AnyObject>.fromOpaque(owner.toOpaque()), registrar, storage, lock, newValue)
  }

  /// ``setObserved(_:_:_:_:)`` for an object of any class, given its registrar (the
  /// registrar's class does not depend on the object's, so that this is generic only over the
  /// value: key-value coding's stores use it for every observed class, specialized for the
  /// common value types).
  @inlinable @inline(never)
  @_specialize(where Value == String)
  @_specialize(where Value == Int)
  @_specialize(where Value == Double)
  @_specialize(where Value == Bool)
  static func setObserved(
    _ owner: Unmanaged<AnyObject>, _ registrar: Unmanaged<ObservationRegistrar>,
    _ storage: UnsafeMutablePointer<Observed<Value>>, _ lock: PropertyLock, _ newValue: Value
  ) {
    StorageState.waitWhileModified(UnsafeMutableRawPointer(storage), lock)
    let state = storage.pointee.state
    let key = StorageState.keyIndex(of: state)
    guard state & StorageState.observed != 0,
      let context = registrar._withUnsafeGuaranteedRef({ $0.existingContextUnretained }),
      let list = context._withUnsafeGuaranteedRef({ $0.beginDelivery(key: key) })
    else {
      // Nobody to notify (the last observer is gone: sets of this property are fast again);
      // a reading that tracks the property learns of the set by its change counter.
      storage.pointee.state = StorageState.afterSet(state) & ~StorageState.observed
      let old = exchange(storage, newValue)
      lock.unlock()
      _ = old
      return
    }
    #if DEBUG
      // A set inside a will/did pair of its own key notifies twice: said once, after it.
      let insidePair = context._withUnsafeGuaranteedRef { $0.isInManualPair(key: key) }
    #endif
    let replaced = deliverSetting(owner, list, storage, lock, newValue, state)
    // The replaced value is released once the delivery has ended: its `deinit` may end an
    // observation of this key, which waits for deliveries of the list this thread is in.
    withExtendedLifetime(replaced) {
      context._withUnsafeGuaranteedRef { $0.endDelivery(list) }
    }
    #if DEBUG
      if insidePair { context._withUnsafeGuaranteedRef { $0.warnOfSetInManualPair(key: key) } }
    #endif
  }

  /// The rest of ``setObserved(_:_:_:_:)``: the object is locked (its storage's state read as
  /// `state`), and `list` retained and counted in flight. Returns the value replaced, for the
  /// caller to release after the delivery ends.
  @inlinable @inline(__always)
  static func deliverSetting(
    _ owner: Unmanaged<AnyObject>, _ list: ObserverList,
    _ storage: UnsafeMutablePointer<Observed<Value>>,
    _ lock: PropertyLock, _ newValue: Value, _ state: UInt32
  ) -> Value {
    if list.needsWillPhase {
      // Prior notifications and path observers' old values come before the write, so the
      // lock is released for them. (Concurrent sets of this key may then interleave: see
      // ``ObservingOptions/prior``.)
      let old = storage.pointee.value
      lock.unlock()
      let frame = owner._withUnsafeGuaranteedRef {
        ChangeFrame.willChange($0, list: list, kind: .setting, indexes: nil, old: old)
      }
      lock.lock()
      // The observers may have gone meanwhile, and another thread's set found none and made
      // the property unobserved: an in-place mutation may have begun since.
      StorageState.waitWhileModified(UnsafeMutableRawPointer(storage), lock)
      storage.pointee.state = StorageState.afterSet(storage.pointee.state)
      let replaced = exchange(storage, newValue)
      lock.unlock()
      owner._withUnsafeGuaranteedRef { frame.didChange($0, old: old, new: newValue) }
      return replaced
    } else {
      // The records take their copies of the values before the new value moves in (so the
      // value is copied once per record, and not once more for the storage).
      let kinds = list.recordKinds
      let old: Value? = list.wantsOld ? storage.pointee.value : nil
      let bare = KeyValueChange<Value>(kind: .setting)
      let newOnly = kinds & 0b0010 != 0 ? KeyValueChange(kind: .setting, newValue: newValue) : bare
      let oldOnly = kinds & 0b0100 != 0 ? KeyValueChange(kind: .setting, oldValue: old) : bare
      let both =
        kinds & 0b1000 != 0
        ? KeyValueChange(kind: .setting, oldValue: old, newValue: newValue) : bare
      // Still locked since `state` was read.
      if _slowPath(state & StorageState.tracked != 0) {
        storage.pointee.state = StorageState.afterSet(state)
      }
      let replaced = exchange(storage, newValue)
      lock.unlock()
      owner._withUnsafeGuaranteedRef {
        list.deliverSetting($0, bare: bare, newOnly: newOnly, oldOnly: oldOnly, both: both)
      }
      return replaced
    }
  }
}
