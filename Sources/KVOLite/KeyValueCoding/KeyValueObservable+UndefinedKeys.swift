extension KeyValueObservable {
  /// Called for a key the type does not declare: throws ``KeyValueError/unknownKey(key:type:path:suggestion:)``.
  /// Implement it in your type to answer such keys, as Foundation's `value(forUndefinedKey:)`.
  public func value(forUndefinedKey key: String) throws(KeyValueError) -> Any? {
    throw undefinedKey(key)
  }

  /// Called to set a key the type does not declare: throws ``KeyValueError/unknownKey(key:type:path:suggestion:)``.
  /// Implement it in your type to accept such keys.
  public func setValue(_ value: Any?, forUndefinedKey key: String) throws(KeyValueError) {
    throw undefinedKey(key)
  }

  /// Called when `nil` is set for a key whose value is not optional: throws
  /// ``KeyValueError/nilForNonOptional(path:expected:)``. Implement it to give such keys a default instead.
  public func setNilValueForKey(_ key: String) throws(KeyValueError) {
    let table = KeyTable.of(self)
    let expected =
      table.indexByName[key].map { typeName(table.entries[$0].storedType) } ?? "a value"
    throw .nilForNonOptional(path: key, expected: expected)
  }

  /// The error the default override points throw for `key`.
  func undefinedKey(_ key: String) -> KeyValueError {
    let table = KeyTable.of(self)
    return .unknownKey(
      key: key, type: table.typeName, path: "", suggestion: table.closestName(to: key))
  }
}

/// Where a key path names a key its object's type does not declare, for the override points.
struct UndefinedKey {
  /// The path to the object that lacks the key (empty for the receiver).
  let owner: String
  let key: String
  /// The rest of the path after the key (empty if the key is last).
  let rest: String

  /// The undefined key `error` reports in `keyPath`, if it is one an object along the path
  /// can be asked about (not one to the right of a collection operator).
  init?(_ error: KeyValueError, in keyPath: String) {
    guard case .unknownKey(let key, _, let owner, _) = error, !owner.contains("@") else {
      return nil
    }
    let names = keyPath.split(separator: ".", omittingEmptySubsequences: false)
    let ownerCount =
      owner.isEmpty ? 0 : owner.split(separator: ".", omittingEmptySubsequences: false).count
    guard ownerCount < names.count, names[ownerCount] == key else { return nil }
    self.owner = owner
    self.key = key
    rest = names.dropFirst(ownerCount + 1).joined(separator: ".")
  }

  /// Whether `error` is what the default override points throw for `key` (then the caller's
  /// own, more precise error is thrown instead).
  static func isDefault(_ error: KeyValueError, for key: String) -> Bool {
    guard case .unknownKey(let reported, _, "", _) = error else { return false }
    return reported == key
  }

  /// The object that lacks the key, read from `root`; `nil` if the path to it reads `nil` or
  /// is not an observable object.
  func ownerObject(from root: some KeyValueObservable) throws(KeyValueError) -> (
    any KeyValueObservable
  )? {
    owner.isEmpty ? root : try root.value(forKeyPath: owner) as? any KeyValueObservable
  }
}
