import Foundation

extension KeyValueObservable {
  /// Checks `value` for the key path as ``setValue(_:forKeyPath:)`` would, without setting
  /// anything: its type, `nil` for a non-optional, and the key's validation hook, which may
  /// replace it (then `value` is the replacement). Foundation's `validateValue(_:forKeyPath:)`.
  ///
  /// - Throws: ``KeyValueError``: what ``setValue(_:forKeyPath:)`` would throw for this value.
  public func validateValue(_ value: inout Any?, forKeyPath keyPath: String) throws(KeyValueError) {
    let path = try Self.observableKeys.table.keyValuePath(keyPath)
    let (_, key) = try path.target(in: self)
    guard let check = key.entry.check else { throw settingError(key) }
    value = KeyEntry.box(try check(value, keyPath))
  }

  /// Sets several keys of this object at once, all or nothing: every key and value is checked
  /// first (as ``setValue(_:forKeyPath:)`` checks them, validation hooks included), and only if
  /// all pass are they set, in the order of their keys' names, each notifying as a set does.
  /// `NSNull` stands for `nil`, as in Foundation's `setValuesForKeys(_:)`.
  ///
  /// Keys are names of this object's declared keys, not paths. Other threads may see the keys
  /// set one after the other (the batch is atomic against failure, not against observers).
  ///
  /// - Throws: ``KeyValueError`` for the first key (by name) that is unknown, not settable, or
  ///   whose value is refused; then nothing is set.
  public func setValuesForKeys(_ keyedValues: [String: Any]) throws(KeyValueError) {
    let table = Self.observableKeys.table
    var checked: [(store: (AnyObject, Any) -> Void, value: Any)] = []
    for (name, value) in keyedValues.sorted(by: { $0.key < $1.key }) {
      let key = try declaredKey(name, in: table)
      guard let check = key.entry.check, let store = key.entry.store else {
        throw settingError(key)
      }
      checked.append((store, try check(value is NSNull ? nil : value, name)))
    }
    for (store, value) in checked { store(self, value) }
  }

  /// The values of several keys of this object, by name; `nil` values as `NSNull`, as in
  /// Foundation's `dictionaryWithValues(forKeys:)`.
  ///
  /// - Throws: ``KeyValueError/unknownKey(key:type:path:suggestion:)`` for a name that is not
  ///   a declared key of this object.
  public func dictionaryWithValues(forKeys keys: [String]) throws(KeyValueError) -> [String: Any] {
    let table = Self.observableKeys.table
    var values: [String: Any] = [:]
    for name in keys {
      let key = try declaredKey(name, in: table)
      values[name] = key.entry.displayValue(of: self) ?? NSNull()
    }
    return values
  }

  private func declaredKey(_ name: String, in table: KeyTable) throws(KeyValueError) -> KeyStep {
    guard let index = table.indexByName[name] else {
      throw .unknownKey(
        key: name, type: table.typeName, path: "", suggestion: table.closestName(to: name))
    }
    return KeyStep(table: table, index: index)
  }

  private func settingError(_ key: KeyStep) -> KeyValueError {
    .notSettable(
      key: key.entry.name, type: key.table.typeName,
      reason: key.entry.role == .derived ? "it is derived" : "it is read-only")
  }
}
