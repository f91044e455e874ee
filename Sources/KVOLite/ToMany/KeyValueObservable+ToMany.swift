import Foundation

extension KeyValueObservable {
  /// Inserts, removes or replaces elements of a to-many relationship named by a string key
  /// path, with type-erased elements: what an undo history or a command line needs. The
  /// notifications are those of ``KeyValueArray``.
  ///
  /// - Parameters:
  ///   - kind: ``KeyValueChangeKind/insertion``, ``KeyValueChangeKind/removal`` or
  ///     ``KeyValueChangeKind/replacement``.
  ///   - keyPath: A string key path that ends in a to-many relationship (`contents`).
  ///   - indexes: For an insertion, positions in the resulting array.
  ///   - elements: One per index (none for a removal), of the relationship's element type.
  /// - Throws: ``KeyValueError``: everything ``setValue(_:forKeyPath:)`` throws for the path,
  ///   a path that does not end in a to-many relationship, an element of the wrong type, an index
  ///   out of range or a count mismatch. Nothing changes then.
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
    if let mutate = key.entry.mutateThroughAccessors, kind != .setting {
      return try mutate(object, keyPath, kind, Array(indexes), elements)
    }
    guard let mutate = key.entry.mutateErased, kind != .setting else {
      throw .typeMismatch(
        path: keyPath, expected: "a to-many relationship and a to-many change",
        actual: key.entry.role.description)
    }
    let (offset, observedKey) = try key.table.storage(ofKey: key.index, probing: object)
    guard let offset else {
      throw .notObservable(key: key.entry.name, type: key.table.typeName)
    }
    // `object` is held for the whole call, so its storage stays where it is.
    let storage = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset
    try mutate(object, observedKey, storage, keyPath, kind, Array(indexes), elements)
  }
}
