extension KeyValueObservable {
  /// Announces that the value of a declared key is about to change.
  ///
  /// Use it (with ``didChangeValue(for:)``, always paired, on the same thread) for keys declared
  /// with `notifiesAutomatically: false`, or to notify for a change KVOLite cannot see. The
  /// will call sends prior notifications and captures old values; the did call sends the
  /// post-change notifications. Nested pairs for one key deliver one notification each, the
  /// inner one first. A `didChangeValue` without a matching `willChangeValue` does nothing.
  ///
  /// - Throws: ``KeyValueError/undeclaredKeyPath(keyPath:type:)`` if `keyPath` is not a
  ///   declared key of this type.
  public func willChangeValue<Value>(for keyPath: KeyPath<Self, Value>) throws(KeyValueError) {
    let step = try manualStep(for: keyPath)
    observationRegistrar.manualWillChange(self, key: step.index, entry: step.entry)
  }

  /// Announces that the value of a declared key has changed; see ``willChangeValue(for:)``.
  public func didChangeValue<Value>(for keyPath: KeyPath<Self, Value>) throws(KeyValueError) {
    let step = try manualStep(for: keyPath)
    observationRegistrar.manualDidChange(self, key: step.index, entry: step.entry)
  }

  /// ``willChangeValue(for:)`` for a key given by name.
  public func willChangeValue(forKey key: String) throws(KeyValueError) {
    let step = try manualStep(forKey: key)
    observationRegistrar.manualWillChange(self, key: step.index, entry: step.entry)
  }

  /// ``didChangeValue(for:)`` for a key given by name.
  public func didChangeValue(forKey key: String) throws(KeyValueError) {
    let step = try manualStep(forKey: key)
    observationRegistrar.manualDidChange(self, key: step.index, entry: step.entry)
  }

  private func manualStep(for keyPath: AnyKeyPath) throws(KeyValueError) -> KeyStep {
    let table = Self.observableKeys.table
    guard let index = table.indexByKeyPath[keyPath] else {
      throw .undeclaredKeyPath(keyPath: KeyTable.describe(keyPath), type: table.typeName)
    }
    return KeyStep(table: table, index: index)
  }

  private func manualStep(forKey key: String) throws(KeyValueError) -> KeyStep {
    let steps = try Self.observableKeys.table.resolve(KeyPathString(key))
    guard steps.count == 1 else {
      throw .malformedKeyPath(path: key, reason: "manual notification takes a single key")
    }
    return steps[0]
  }
}
