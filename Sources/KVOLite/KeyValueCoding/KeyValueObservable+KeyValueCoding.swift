extension KeyValueObservable {
  /// Reads the value at a string key path: keys (`recipient.firstName`), indexes into to-many
  /// relationships (`contents.0.title`) and collection operators (`contents.@sum.weight`).
  ///
  /// Optionals are flattened: the result is `nil` when the value is `nil` or a relationship
  /// along the path is `nil`.
  ///
  /// - Throws: ``KeyValueError`` naming the problem: a malformed path, an unknown key (with
  ///   the type, the path so far and a close match), a path through an attribute or through a
  ///   to-many relationship without an index or operator, an index out of range, a misplaced or
  ///   unknown operator.
  public func value(forKeyPath keyPath: String) throws(KeyValueError) -> Any? {
    try Self.observableKeys.table.keyValuePath(keyPath).value(of: self)
  }

  /// Sets the value at a string key path, through the property, so that it notifies exactly
  /// once.
  ///
  /// The value is checked before anything is stored: its type, `nil` for a non-optional, and the
  /// key's validation hook, which may also replace it. A failed set changes nothing and
  /// notifies nobody.
  ///
  /// - Throws: ``KeyValueError``: everything ``value(forKeyPath:)`` throws, and a key that is
  ///   not settable (derived or read-only), a type mismatch, `nil` for a non-optional, a `nil`
  ///   relationship on the way, or a rejected value.
  public func setValue(_ value: Any?, forKeyPath keyPath: String) throws(KeyValueError) {
    let path = try Self.observableKeys.table.keyValuePath(keyPath)
    let (object, key) = try path.target(in: self)
    guard let assign = key.entry.assign else { throw notSettable(key) }
    try assign(object, value, keyPath)
  }

  /// Sets the value at a string key path from text, parsed as the key's type: `String`,
  /// integers, `Double`, `Float`, `Bool`, `Decimal`, ``KeyValueTextConvertible`` enums, and
  /// optionals of these (`nil` is the text `nil`). What a command line needs.
  ///
  /// - Throws: ``KeyValueError``: everything ``setValue(_:forKeyPath:)`` throws, and text that
  ///   does not parse (naming the expected type) or a type that has no text form.
  public func setValue(fromText text: String, forKeyPath keyPath: String) throws(KeyValueError) {
    let path = try Self.observableKeys.table.keyValuePath(keyPath)
    let (object, key) = try path.target(in: self)
    guard key.entry.assign != nil else { throw notSettable(key) }
    guard let assignText = key.entry.assignText else {
      throw .notTextConvertible(path: keyPath, type: typeName(key.entry.storedType))
    }
    try assignText(object, text, keyPath)
  }

  private func notSettable(_ key: KeyStep) -> KeyValueError {
    .notSettable(
      key: key.entry.name, type: key.table.typeName,
      reason: key.entry.role == .derived ? "it is derived" : "it is read-only")
  }
}
