import Foundation

extension KeyValueObservable {
  /// Inserts, removes or replaces elements of a to-many relationship (or of an attribute that
  /// is an array of values) named by a string key path, with type-erased elements: what an
  /// undo history or a command line needs. The notifications are those of ``KeyValueArray``.
  ///
  /// - Parameters:
  ///   - kind: ``KeyValueChangeKind/insertion``, ``KeyValueChangeKind/removal`` or
  ///     ``KeyValueChangeKind/replacement``.
  ///   - keyPath: A string key path that ends in a to-many relationship (`contents`) or an
  ///     array (`tags`).
  ///   - indexes: For an insertion, positions in the resulting array.
  ///   - elements: One per index (none for a removal), of the array's element type.
  /// - Throws: ``KeyValueError``: everything ``setValue(_:forKeyPath:)`` throws for the path,
  ///   a path that does not end in an array, an element of the wrong type, an index out of
  ///   range or a count mismatch. Nothing changes then.
  public func mutateToMany(
    _ kind: KeyValueChangeKind, forKeyPath keyPath: String, at indexes: IndexSet,
    elements: [Any] = []
  ) throws(KeyValueError) {
    let path = try KeyTable.of(self).keyValuePath(keyPath)
    if let (owner, rest, before) = try path.restOwner(in: self) {
      // The rest is looked up on the class of the object reached.
      do {
        return try owner.mutateToMany(kind, forKeyPath: rest, at: indexes, elements: elements)
      } catch {
        throw error.continued(after: before)
      }
    }
    let (object, key) = try path.target(in: self)
    try key.mutate(object, kind, at: Array(indexes), elements: elements, path: keyPath)
  }

  /// A proxy for the array of the key `key` of this object, whose mutations notify observers of
  /// the key with their kind and indexes: Foundation's `mutableArrayValue(forKey:)`, over an
  /// array of objects (a to-many relationship, kept by an ``Observed`` property or by
  /// ``IndexedAccessors``) or of values. See ``AnyKeyValueArray``.
  ///
  /// - Throws: ``KeyValueError``: an unknown key (what ``setValue(_:forUndefinedKey:)``'s
  ///   default throws; Foundation raises at the first mutation), a key that is not an array,
  ///   or one that is not an ``Observed`` property.
  public func mutableArrayValue(forKey key: String) throws(KeyValueError) -> AnyKeyValueArray {
    let table = KeyTable.of(self)
    guard let index = table.indexByName[key] else { throw undefinedKey(key) }
    return try AnyKeyValueArray(owner: self, key: KeyStep(table: table, index: index), path: key)
  }

  /// ``mutableArrayValue(forKey:)`` for the array at the end of a key path
  /// (`recipient.tags`, `groups.0.items`): Foundation's `mutableArrayValue(forKeyPath:)`. The
  /// object that owns the array is found now, and the proxy mutates that object's array.
  ///
  /// - Throws: ``KeyValueError``: what ``setValue(_:forKeyPath:)`` throws for the path, and
  ///   what ``mutableArrayValue(forKey:)`` throws for its last key.
  public func mutableArrayValue(forKeyPath keyPath: String) throws(KeyValueError)
    -> AnyKeyValueArray
  {
    let path = try KeyTable.of(self).keyValuePath(keyPath)
    if let (owner, rest, before) = try path.restOwner(in: self) {
      do {
        return try owner.mutableArrayValue(forKeyPath: rest).continued(after: before)
      } catch {
        throw error.continued(after: before)
      }
    }
    let (object, key) = try path.target(in: self)
    return try AnyKeyValueArray(
      owner: object as! any KeyValueObservable, key: key, path: keyPath)
  }
}

extension KeyStep {
  /// Applies a type-erased mutation to this key, an array, of `object`: through its indexed
  /// accessors or at its ``Observed`` storage, notifying as ``KeyValueArray`` does. `indexes`
  /// `nil` means the end of the array as it is then (an insertion) or all of it (a removal).
  func mutate(
    _ object: AnyObject, _ kind: KeyValueChangeKind, at indexes: [Int]?, elements: [Any],
    path: String
  ) throws(KeyValueError) {
    if let mutate = entry.mutateThroughAccessors, kind != .setting {
      // The owner serializes every use of a relationship kept by indexed accessors.
      let count = entry.elementCount?(object) ?? 0
      let at =
        indexes
        ?? (kind == .insertion ? Array(count..<count + elements.count) : Array(0..<count))
      return try mutate(object, path, kind, at, elements)
    }
    guard let mutate = entry.mutateErased, kind != .setting else {
      throw .typeMismatch(
        path: path, expected: "an array and a to-many change",
        actual: entry.role.description.withArticle)
    }
    let (offset, observedKey) = try table.storage(ofKey: index, probing: object)
    guard let offset else { throw .notObservable(key: entry.name, type: table.typeName) }
    // `object` is held for the whole call, so its storage stays where it is.
    let storage = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset
    // Swift Observation hears of it as of a set of the property, as with ``KeyValueArray``.
    guard let observable = object as? any KeyValueObservable,
      type(of: observable)._tracksSwiftObservation
    else { return try mutate(object, observedKey, storage, path, kind, indexes, elements) }
    let notifier = table.entries[observedKey].accessors?.notifier
    SwiftObservationBox.storageChange(of: observable, notifier: notifier, will: true)
    defer { SwiftObservationBox.storageChange(of: observable, notifier: notifier, will: false) }
    try mutate(object, observedKey, storage, path, kind, indexes, elements)
  }
}
