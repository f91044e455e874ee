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
  ///
  /// A key that an object along the path does not declare is passed to that object's
  /// ``value(forUndefinedKey:)`` (whose default throws the error described above); if a `nil`
  /// relationship leaves no object to ask, the error is thrown. A path goes on through what
  /// the override returns when that is an observable object.
  public func value(forKeyPath keyPath: String) throws(KeyValueError) -> Any? {
    let path: KeyValuePath
    do {
      path = try KeyTable.of(self).keyValuePath(keyPath)
    } catch {
      return try valueOfUndefinedKey(error, in: keyPath)
    }
    return try path.value(of: self)
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
  ///
  /// The override points: a key the object does not declare goes to its
  /// ``setValue(_:forUndefinedKey:)`` if it ends the path, and otherwise the path goes on
  /// through what its ``value(forUndefinedKey:)`` answers (as reading does); `nil` for a key
  /// whose type is not optional goes to ``setNilValueForKey(_:)``. Their defaults throw the
  /// errors described here.
  public func setValue(_ value: Any?, forKeyPath keyPath: String) throws(KeyValueError) {
    let path: KeyValuePath
    do {
      path = try KeyTable.of(self).keyValuePath(keyPath)
    } catch {
      return try setUndefinedKey(value, error, in: keyPath)
    }
    if let (owner, rest, before) = try path.restOwner(in: self) {
      // The rest is looked up on the class of the object reached.
      do {
        return try owner.setValue(value, forKeyPath: rest)
      } catch {
        throw error.continued(after: before)
      }
    }
    let (object, key) = try path.target(in: self)
    guard let assign = key.entry.assign else { throw key.notSettable }
    do {
      try assign(object, value, keyPath)
    } catch {
      guard case .nilForNonOptional = error, let owner = object as? any KeyValueObservable else {
        throw error
      }
      do {
        try owner.setNilValueForKey(key.entry.name)
      } catch let overridden {
        if case .nilForNonOptional = overridden { throw error }
        throw overridden
      }
    }
  }

  /// Sets the value at a string key path from text, parsed as the key's type: `String`,
  /// integers, `Double`, `Float`, `Bool`, `Decimal`, ``KeyValueTextConvertible`` enums, and
  /// optionals of these (`nil` is the text `nil`). What a command line needs.
  ///
  /// - Throws: ``KeyValueError``: everything ``setValue(_:forKeyPath:)`` throws, and text that
  ///   does not parse (naming the expected type) or a type that has no text form.
  public func setValue(fromText text: String, forKeyPath keyPath: String) throws(KeyValueError) {
    let path: KeyValuePath
    do {
      path = try KeyTable.of(self).keyValuePath(keyPath)
    } catch {
      return try setUndefinedKey(text, error, in: keyPath, fromText: true)
    }
    if let (owner, rest, before) = try path.restOwner(in: self) {
      do {
        return try owner.setValue(fromText: text, forKeyPath: rest)
      } catch {
        throw error.continued(after: before)
      }
    }
    let (object, key) = try path.target(in: self)
    guard key.entry.assign != nil else { throw key.notSettable }
    guard let assignText = key.entry.assignText else {
      throw .notTextConvertible(path: keyPath, type: typeName(key.entry.storedType))
    }
    try assignText(object, text, keyPath)
  }

  /// Asks the object that lacks the key `error` reports for its value, if the error is such a
  /// key; otherwise, or if the object declines (the default), throws `error`.
  private func valueOfUndefinedKey(_ error: KeyValueError, in keyPath: String) throws(KeyValueError)
    -> Any?
  {
    // With no object to ask (a nil relationship on the way), the naming error stands: key paths
    // are checked against the declarations before anything is read.
    guard let undefined = UndefinedKey(error, in: keyPath),
      let owner = try undefined.ownerObject(from: self)
    else { throw error }
    let value: Any?
    do {
      value = try owner.value(forUndefinedKey: undefined.key)
    } catch let overridden {
      throw UndefinedKey.isDefault(overridden, for: undefined.key) ? error : overridden
    }
    guard !undefined.rest.isEmpty, let value else { return value }
    guard let next = value as? any KeyValueObservable else {
      throw .notARelationship(
        key: undefined.key, type: String(describing: type(of: owner)), role: .attribute)
    }
    return try next.value(forKeyPath: undefined.rest)
  }

  /// Passes a set of the undefined key `error` reports to the object that lacks it: if the key
  /// ends the path, to its ``setValue(_:forUndefinedKey:)``; otherwise the path goes on through
  /// what its ``value(forUndefinedKey:)`` answers, as Foundation walks a path with
  /// `value(forKey:)`. If the object declines (the default), throws `error`. With `fromText`,
  /// the rest of the path is set from text (the undefined key at the end gets the text).
  private func setUndefinedKey(
    _ value: Any?, _ error: KeyValueError, in keyPath: String, fromText: Bool = false
  ) throws(KeyValueError) {
    guard let undefined = UndefinedKey(error, in: keyPath),
      let owner = try undefined.ownerObject(from: self)
    else { throw error }
    if undefined.rest.isEmpty {
      do {
        try owner.setValue(value, forUndefinedKey: undefined.key)
      } catch let overridden {
        throw UndefinedKey.isDefault(overridden, for: undefined.key) ? error : overridden
      }
      return
    }
    let answer: Any?
    do {
      answer = try owner.value(forUndefinedKey: undefined.key)
    } catch let overridden {
      throw UndefinedKey.isDefault(overridden, for: undefined.key) ? error : overridden
    }
    guard let answer else {
      throw .nilIntermediate(path: keyPath, key: undefined.key)
    }
    guard let next = answer as? any KeyValueObservable else {
      throw .notARelationship(
        key: undefined.key, type: String(describing: type(of: owner)), role: .attribute)
    }
    if fromText, let text = value as? String {
      try next.setValue(fromText: text, forKeyPath: undefined.rest)
    } else {
      try next.setValue(value, forKeyPath: undefined.rest)
    }
  }
}
