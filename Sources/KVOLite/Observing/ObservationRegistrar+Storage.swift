/// Locating the ``Observed`` storage of a key, so that sets of observed keys never need a key
/// path (see ``Observed``).
///
/// When a key is first observed on an object, the registrar *stamps* its storage: it reads the
/// key once through its declaration while "probing", the ``Observed`` getter that runs reports
/// where its storage lies in the object, and the registrar writes the key's index into that
/// storage. An unstamped storage is one nobody has observed, which is why the setter's fast path
/// need not look further.
extension ObservationRegistrar {
  /// Stamps the storage of key `index` of `object`, once.
  ///
  /// - Throws: ``KeyValueError/notObservable(key:type:)`` if the key is automatically notifying
  ///   but its getter is not an ``Observed`` property of the declared type: observing it would
  ///   never fire.
  func stamp(_ object: AnyObject, key index: Int, entry: KeyEntry, typeName: String)
    throws(KeyValueError)
  {
    if lock.withLock({ index < slots.count && slots[index].isStamped }) { return }
    try stampLock.withLock { () throws(KeyValueError) in
      if lock.withLock({ index < slots.count && slots[index].isStamped }) { return }
      var found: (offset: Int, valueType: ObjectIdentifier)?
      if entry.role != .derived {
        let thread = currentThreadID()
        lock.withLock {
          probingThread = thread
          probeResult = nil
        }
        _ = entry.value(object)
        found = lock.withLock {
          defer {
            probingThread = 0
            probeResult = nil
          }
          return probeResult
        }
      }
      let stored = found.flatMap { $0.valueType == ObjectIdentifier(entry.storedType) ? $0.offset : nil }
      if stored == nil, entry.notifiesAutomatically, entry.role != .derived {
        throw .notObservable(key: entry.name, type: typeName)
      }
      lock.withLock {
        ensureSlot(index)
        slots[index].isStamped = true
        slots[index].notifiesAutomatically = entry.notifiesAutomatically
        if let stored {
          slots[index].storageOffset = stored
          entry.stampKeyIndex?(base(of: object) + stored, Int32(index))
        }
      }
    }
  }

  /// Called by an ``Observed`` getter, with the lock held, while some thread is probing.
  @usableFromInline
  func recordProbe(_ object: AnyObject, storage: UnsafeRawPointer, valueType: Any.Type) {
    guard probingThread == currentThreadID(), probeResult == nil else { return }
    probeResult = (UnsafeRawPointer(base(of: object)).distance(to: storage), ObjectIdentifier(valueType))
  }

  /// The storage of stamped key `index` of `object`. Call with the lock held.
  @inlinable
  func storage<Storage>(of object: AnyObject, key index: Int, as type: Storage.Type)
    -> UnsafeMutablePointer<Storage>
  {
    (base(of: object) + slots[index].storageOffset).assumingMemoryBound(to: Storage.self)
  }

  @inlinable
  func base(of object: AnyObject) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(object).toOpaque()
  }
}
