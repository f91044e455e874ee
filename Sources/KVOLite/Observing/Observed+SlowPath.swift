/// The slow path of a set: the property is observed (or its lock was busy).
extension Observed {
  /// Finishes a set that the fast path could not: takes the property's lock, and if the key
  /// has observers, notifies them around the write.
  ///
  /// Inlinable so that it is specialized for the property's type in the client (no boxing for
  /// typed observers), never inlined so that setters stay small. Lock order: the property's
  /// lock, then the registrar's; the registrar never waits for a property lock while holding
  /// its own.
  @inlinable @inline(never)
  static func setSlow<Root: KeyValueObservable>(
    _ owner: Unmanaged<Root>, _ storage: UnsafeMutablePointer<Observed<Value>>, _ newValue: Value
  ) {
    let word = StorageWord(storage)
    let state = word.lock()
    let key = StorageWord.keyIndex(of: state)
    guard state & StorageWord.observed != 0, key >= 0 else {
      // Only the lock was busy.
      let old = exchange(storage, newValue)
      word.unlock(state)
      _ = old
      return
    }
    // Nothing here is retained: the caller holds the object, which holds its registrar, which
    // holds its context, which holds the list while the delivery is counted.
    owner._withUnsafeGuaranteedRef { object in
      let context = object.observationRegistrar.existingContextUnretained
      guard let context, let held = context._withUnsafeGuaranteedRef({ $0.beginDelivery(key: key) })
      else {
        // The last observer is gone: sets of this property are fast again.
        let old = exchange(storage, newValue)
        word.unlock(state & ~StorageWord.observed)
        _ = old
        return
      }
      held._withUnsafeGuaranteedRef { list in
        setObserved(object, list, storage, word, state, newValue)
      }
      context._withUnsafeGuaranteedRef { $0.endDelivery(held) }
    }
  }

  /// The rest of ``setSlow(_:_:_:)``: the property is locked, and `list` counted in flight.
  @inlinable @inline(__always)
  static func setObserved<Root: KeyValueObservable>(
    _ object: Root, _ list: ObserverList, _ storage: UnsafeMutablePointer<Observed<Value>>,
    _ word: StorageWord, _ state: UInt32, _ newValue: Value
  ) {
    if list.needsWillPhase {
      // Prior notifications and path observers' old values come before the write, so the
      // lock is released for them. (Concurrent sets of this key may then interleave: see
      // ``ObservingOptions/prior``.)
      let old = storage.pointee.value
      word.unlock(state)
      let frame = ChangeFrame.willChange(object, list: list, kind: .setting, indexes: nil, old: old)
      let relocked = word.lock()
      let replaced = exchange(storage, newValue)
      word.unlock(relocked)
      _ = replaced
      frame.didChange(object, old: old, new: newValue)
    } else {
      // The records take their copies of the values before the new value moves in (so the
      // value is copied once per record, and not once more for the storage).
      let kinds = list.recordKinds
      let old: Value? = list.wantsOld ? storage.pointee.value : nil
      let bare = KeyValueChange<Value>(kind: .setting)
      let newOnly = kinds & 0b0010 != 0 ? KeyValueChange(kind: .setting, newValue: newValue) : bare
      let oldOnly = kinds & 0b0100 != 0 ? KeyValueChange(kind: .setting, oldValue: old) : bare
      let both =
        kinds & 0b1000 != 0 ? KeyValueChange(kind: .setting, oldValue: old, newValue: newValue) : bare
      let replaced = exchange(storage, newValue)
      word.unlock(state)
      _ = replaced
      list.deliverSetting(object, bare: bare, newOnly: newOnly, oldOnly: oldOnly, both: both)
    }
  }
}
