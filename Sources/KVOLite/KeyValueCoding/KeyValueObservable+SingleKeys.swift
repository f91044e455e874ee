extension KeyValueObservable {
  /// Reads the value of one declared key: Foundation's `value(forKey:)`.
  ///
  /// `key` is a single key, never a path: a name holding a dot, starting with `@` or not
  /// declared in ``observableKeys`` goes to ``value(forUndefinedKey:)``, whose default throws
  /// ``KeyValueError/unknownKey(key:type:path:suggestion:)``. A to-many relationship reads as
  /// its array. Optionals are flattened, as in ``value(forKeyPath:)``.
  public func value(forKey key: String) throws(KeyValueError) -> Any? {
    guard KeyTable.of(self).indexByName[key] != nil else { return try value(forUndefinedKey: key) }
    return try value(forKeyPath: key)
  }

  /// Sets the value of one declared key: Foundation's `setValue(_:forKey:)`.
  ///
  /// `key` is a single key, never a path: an undeclared name goes to
  /// ``setValue(_:forUndefinedKey:)``. Otherwise it behaves as ``setValue(_:forKeyPath:)``: the
  /// value is checked (type, `nil`, validation) before anything is stored, a failed set changes
  /// nothing, and a successful one notifies once.
  ///
  /// - Throws: ``KeyValueError``, as ``setValue(_:forKeyPath:)``.
  public func setValue(_ value: Any?, forKey key: String) throws(KeyValueError) {
    guard KeyTable.of(self).indexByName[key] != nil else {
      return try setValue(value, forUndefinedKey: key)
    }
    try setValue(value, forKeyPath: key)
  }
}
