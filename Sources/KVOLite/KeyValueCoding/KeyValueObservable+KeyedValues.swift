import Foundation

extension KeyValueObservable {
  /// Validates `value` for the key path: Foundation's `validateValue(_:forKeyPath:)`.
  ///
  /// The path is followed to the object that owns its last key, which is asked
  /// ``validateValue(_:forKey:)``. A `nil` relationship on the way leaves nothing to validate:
  /// the value is accepted.
  ///
  /// - Throws: ``KeyValueError``: what reading the path up to its last key throws, and what the
  ///   last key's validation hook throws.
  public func validateValue(_ value: inout Any?, forKeyPath keyPath: String) throws(KeyValueError) {
    guard let dot = keyPath.lastIndex(of: ".") else {
      return try validateValue(&value, forKey: keyPath)
    }
    guard let owner = try self.value(forKeyPath: String(keyPath[..<dot])) as? any KeyValueObservable
    else { return }
    try owner.validateValue(&value, forKey: String(keyPath[keyPath.index(after: dot)...]))
  }

  /// Validates `value` for one key: Foundation's `validateValue(_:forKey:)`.
  ///
  /// As in Foundation, a key with no validation hook accepts any value, whatever its type, and
  /// so does a key the type does not declare. A key declared with a hook (`validate:`) checks
  /// the value's type (the hook takes the key's type), then runs the hook, which may replace
  /// the value (then `value` is the replacement) or reject it.
  ///
  /// - Throws: ``KeyValueError/typeMismatch(path:expected:actual:)``,
  ///   ``KeyValueError/nilForNonOptional(path:expected:)`` or
  ///   ``KeyValueError/validationFailed(path:reason:)``, only for a key with a hook.
  public func validateValue(_ value: inout Any?, forKey key: String) throws(KeyValueError) {
    let table = KeyTable.of(self)
    guard let index = table.indexByName[key], table.entries[index].hasValidator,
      let check = table.entries[index].check
    else { return }
    value = KeyEntry.box(try check(value, key))
  }

  /// Sets several keys of this object at once: Foundation's `setValuesForKeys(_:)`, which sets
  /// each key as ``setValue(_:forKey:)`` does. `NSNull` stands for `nil`.
  ///
  /// All or nothing for what can be checked: first every declared key's value is checked (its
  /// type and the key's validation hook, as ``setValue(_:forKeyPath:)`` checks them); then the
  /// override points run, in the order of the keys' names — ``setValue(_:forUndefinedKey:)``
  /// for a key the type does not declare, ``setNilValueForKey(_:)`` for `nil` given to a key
  /// whose type is not optional; then, if none threw, the checked values are stored, in the
  /// order of their names, each notifying as a set does. A failed check or a throwing override
  /// point leaves every declared key as it was (what an override did before it threw is its
  /// own).
  ///
  /// Other threads may see the keys set one after the other (the batch is atomic against
  /// failure, not against observers).
  ///
  /// - Throws: ``KeyValueError`` for the first key (by name) whose value is refused, or what an
  ///   override point throws (their defaults: an unknown key, `nil` for a non-optional).
  public func setValuesForKeys(_ keyedValues: [String: Any]) throws(KeyValueError) {
    let table = KeyTable.of(self)
    var checked: [(store: (AnyObject, Any) -> Void, value: Any)] = []
    var overrides: [(key: String, value: Any?)] = []
    for (name, given) in keyedValues.sorted(by: { $0.key < $1.key }) {
      let value = given is NSNull ? nil : given
      guard let index = table.indexByName[name] else {
        overrides.append((name, value))
        continue
      }
      let key = KeyStep(table: table, index: index)
      guard let check = key.entry.check, let store = key.entry.store else {
        throw key.notSettable
      }
      if value == nil, !(key.entry.storedType is any OptionalProtocol.Type) {
        overrides.append((name, nil))
        continue
      }
      checked.append((store, try check(value, name)))
    }
    for (name, value) in overrides {
      if table.indexByName[name] == nil {
        try setValue(value, forUndefinedKey: name)
      } else {
        try setNilValueForKey(name)
      }
    }
    for (store, value) in checked { store(self, value) }
  }

  /// The values of several keys of this object, by name: Foundation's
  /// `dictionaryWithValues(forKeys:)`, which reads each key as ``value(forKey:)`` does (so a
  /// key the type does not declare goes to ``value(forUndefinedKey:)``); `nil` values as
  /// `NSNull`.
  ///
  /// - Throws: what ``value(forKey:)`` throws for the first key that fails (by default
  ///   ``KeyValueError/unknownKey(key:type:path:suggestion:)`` for an undeclared key).
  public func dictionaryWithValues(forKeys keys: [String]) throws(KeyValueError) -> [String: Any] {
    var values: [String: Any] = [:]
    for name in keys {
      values[name] = try value(forKey: name) ?? NSNull()
    }
    return values
  }
}
