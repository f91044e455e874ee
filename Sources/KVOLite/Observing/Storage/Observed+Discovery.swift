/// What key discovery asks of the type of a stored property: ``Observed`` answers with the key
/// of the property. (Every other type is not a key.)
protocol DiscoverableStorage {
  /// The key of the ``Observed`` property `name` of `Root`, whose storage is at `offset` in
  /// its objects.
  static func discoveredEntry<Root: KeyValueObservable>(
    name: String, offset: Int, in root: Root.Type
  ) -> KeyEntry
}

extension Observed: DiscoverableStorage {
  /// The key of this property, its role taken from `Value`: an observable object (optional or
  /// not) is a to-one relationship, an array of observable objects a to-many relationship,
  /// anything else an attribute (settable from text when `Value` has a text form).
  ///
  /// Reads and writes go through the property's accessors, as Foundation's key-value coding
  /// does, once its getter or setter has handed its key path over (``AccessorRegistry``): the key path
  /// dispatches to the object's class, so a subclass's override (getter, setter, `didSet`) runs.
  /// Until then they go to the storage at `offset`, as the accessors of `Root` itself would:
  /// under the object's lock, and a write notifies exactly as a set of the property does.
  static func discoveredEntry<Root: KeyValueObservable>(
    name: String, offset: Int, in _: Root.Type
  ) -> KeyEntry {
    let role: KeyRole
    var valueType: Any.Type = Value.self
    var isOptional = false
    let target = relationshipTarget()
    if let (related, optional) = target {
      role = .toOne
      valueType = related
      isOptional = optional
    } else if (Value.self as? any ObservableArray.Type) != nil {
      role = .toMany
    } else {
      role = .attribute
    }
    let accessors = AccessorSlot<Root, Value>(offset: offset)
    let entry = KeyEntry(
      name: name, keyPath: nil, role: role, valueType: valueType, storedType: Value.self,
      isOptional: isOptional, notifiesAutomatically: true,
      value: { read($0, accessors, offset) })
    entry.accessors = accessors
    entry.declaringClass = ObjectIdentifier(Root.self)
    entry.makeErasedRecord = KeyEntry.erasedRecordMaker(Root.self, Value.self)
    entry.assign = { object, value, path throws(KeyValueError) in
      set(try KeyEntry.cast(value, to: Value.self, path: path), of: object, accessors, offset)
    }
    entry.check = { value, path throws(KeyValueError) in
      try KeyEntry.cast(value, to: Value.self, path: path)
    }
    entry.store = { object, value in set(value as! Value, of: object, accessors, offset) }
    if let text = Value.self as? any KeyValueTextConvertible.Type {
      entry.assignText = textAssigner(text, accessors, offset)
    }
    if let (related, _) = target {
      entry.related = relatedReader(related, accessors, offset: offset)
      entry.relatedKeys = { KeyTable.of(related) }
    }
    // An array, of objects or of values, can be mutated by index (`mutableArrayValue`).
    entry.mutateErased = (Value.self as? any MutableArrayValue.Type)?.erasedMutator
    if let array = Value.self as? any ObservableArray.Type {
      array.describeToMany(entry, offset: offset) { object in
        accessors.getterKeyPath(for: object).map {
          unsafeDowncast(object, to: Root.self)[keyPath: $0]
        }
      }
    }
    return entry
  }

  /// Reads the property of `object`: through its getter if `object` is of a subclass of `Root`
  /// (which may override it) once the getter's key path is known, otherwise from the storage at
  /// `offset` (which is what `Root`'s own getter reads).
  private static func read<Root: KeyValueObservable>(
    _ object: AnyObject, _ accessors: AccessorSlot<Root, Value>, _ offset: Int
  ) -> Value {
    guard let keyPath = accessors.getterKeyPath(for: object) else {
      return load(from: object, offset: offset)
    }
    return unsafeDowncast(object, to: Root.self)[keyPath: keyPath]
  }

  /// Sets the property of `object` to `value`: through its setter once its key path is known,
  /// otherwise at the storage at `offset`, notifying as a set of the property does.
  private static func set<Root: KeyValueObservable>(
    _ value: Value, of object: AnyObject, _ accessors: AccessorSlot<Root, Value>, _ offset: Int
  ) {
    guard let keyPath = accessors.keyPath else {
      return write(value, to: object, Root.self, offset)
    }
    unsafeDowncast(object, to: Root.self)[keyPath: keyPath] = value
  }

  /// The related type if `Value` is an observable object or an optional one, and whether it
  /// is optional.
  private static func relationshipTarget() -> (any KeyValueObservable.Type, Bool)? {
    if let related = Value.self as? any KeyValueObservable.Type { return (related, false) }
    if let optional = Value.self as? any OptionalProtocol.Type,
      let related = optional.wrappedType as? any KeyValueObservable.Type
    {
      return (related, true)
    }
    return nil
  }

  /// The `related` closure of a to-one relationship to `Target` (this `Value`, or its
  /// optional): the value seen as an observable object, with no dynamic cast.
  private static func relatedReader<Target: KeyValueObservable, Root: KeyValueObservable>(
    _: Target.Type, _ accessors: AccessorSlot<Root, Value>, offset: Int
  ) -> (AnyObject) -> (any KeyValueObservable)? {
    // `Value` is `Target` or `Target?`, a class reference: its storage is laid out as that of
    // an `AnyObject?` (a reference that is never null when `Value` is not optional), which is
    // read by code specialized for it.
    { object in
      let related: AnyObject? =
        if let keyPath = accessors.getterKeyPath(for: object) {
          unsafeBitCast(
            unsafeDowncast(object, to: Root.self)[keyPath: keyPath], to: AnyObject?.self)
        } else {
          Observed<AnyObject?>.load(from: object, offset: offset)
        }
      return related.map { unsafeDowncast($0, to: Target.self) }
    }
  }

  /// Reads the value stored at `offset` in `object`, under the object's lock. The caller holds
  /// `object`.
  @_specialize(where Value == String)
  @_specialize(where Value == Int)
  @_specialize(where Value == Double)
  @_specialize(where Value == Bool)
  @_specialize(where Value == AnyObject?)
  static func load(from object: AnyObject, offset: Int) -> Value {
    withExtendedLifetime(object) {
      let base = Unmanaged.passUnretained(object).toOpaque()
      let lock = PropertyLock(for: base)
      lock.lock()
      StorageState.waitWhileModified(base + offset, lock)
      let value = (base + offset).assumingMemoryBound(to: Observed<Value>.self).pointee.value
      lock.unlock()
      return value
    }
  }

  /// Stores `value` at `offset` in `object`, a `Root`, as a set of the property does (notifying
  /// its observers). The caller holds `object`.
  static func write<Root: KeyValueObservable>(
    _ value: Value, to object: AnyObject, _: Root.Type, _ offset: Int
  ) {
    let registrar = unsafeDowncast(object, to: Root.self).observationRegistrar
    write(value, to: object, registrar: registrar, offset)
  }

  /// ``write(_:to:_:_:)`` once the object's registrar is known: generic only over the value, and
  /// specialized for the common value types (key-value coding's stores, a script's `set`).
  @_specialize(where Value == String)
  @_specialize(where Value == Int)
  @_specialize(where Value == Double)
  @_specialize(where Value == Bool)
  static func write(
    _ value: Value, to object: AnyObject, registrar: ObservationRegistrar, _ offset: Int
  ) {
    withExtendedLifetime((object, registrar)) {
      let owner = Unmanaged.passUnretained(object)
      let storage = (UnsafeMutableRawPointer(owner.toOpaque()) + offset)
        .assumingMemoryBound(to: Observed<Value>.self)
      let lock = PropertyLock(for: owner.toOpaque())
      lock.lock()
      guard
        storage.pointee.state
          & (StorageState.observed | StorageState.tracked | StorageState.modifying) == 0
      else {
        return setObserved(owner, .passUnretained(registrar), storage, lock, value)
      }
      let old = exchange(storage, value)
      lock.unlock()
      _ = old  // Released here, after unlocking.
    }
  }

  /// The `assignText` closure of a key whose `Value` is `Text`, a text-convertible type.
  private static func textAssigner<Text: KeyValueTextConvertible, Root: KeyValueObservable>(
    _: Text.Type, _ accessors: AccessorSlot<Root, Value>, _ offset: Int
  ) -> (AnyObject, String, String) throws(KeyValueError) -> Void {
    { object, text, path throws(KeyValueError) in
      guard let parsed = Text(keyValueText: text) else {
        throw .unparsableText(
          text: text, path: path, expected: KeyEntry.describeExpected(Value.self))
      }
      set(parsed as! Value, of: object, accessors, offset)
    }
  }
}

/// An array of observable objects: the type of a to-many relationship found by discovery.
protocol ObservableArray {
  /// Fills in the to-many closures of `entry`, whose ``Observed`` storage is at `offset`;
  /// `getter` reads the array through the property's getter (`nil` until its key path is
  /// known, see ``AccessorKeyPaths``).
  static func describeToMany(
    _ entry: KeyEntry, offset: Int, getter: @escaping (AnyObject) -> Any?)
}

extension Array: ObservableArray where Element: KeyValueObservable {
  static func describeToMany(
    _ entry: KeyEntry, offset: Int, getter: @escaping (AnyObject) -> Any?
  ) {
    // Through the getter once its key path is known, from the storage until then.
    let read = { (object: AnyObject) -> Self in
      (getter(object) as! Self?) ?? Observed<Self>.load(from: object, offset: offset)
    }
    entry.elements = { read($0) }
    entry.elementCount = { read($0).count }
    entry.element = { object, index in
      let elements = read(object)
      return (elements.indices.contains(index) ? elements[index] : nil, elements.count)
    }
    entry.elementKeys = { KeyTable.of(Element.self) }
  }
}
