extension KeyValueObservable {
  /// Announces that the value of a declared key is about to change.
  ///
  /// Use it (with ``didChangeValue(for:)``, always paired, on the same thread) for keys declared
  /// with `notifiesAutomatically: false`, or to notify for a change KVOLite cannot see. The
  /// will call sends prior notifications and captures old values; the did call sends the
  /// post-change notifications to the observers that were registered at will-time and still
  /// are. Nested pairs for one key deliver one notification each, the inner one first. A
  /// `didChangeValue` without a matching `willChangeValue` does nothing.
  ///
  /// - Throws: ``KeyValueError/undeclaredKeyPath(keyPath:type:)`` if `keyPath` is not a
  ///   declared key of this type.
  public func willChangeValue<Value>(for keyPath: KeyPath<Self, Value>) throws(KeyValueError) {
    manualWillChange(try manualStep(for: keyPath))
  }

  /// Announces that the value of a declared key has changed; see ``willChangeValue(for:)``.
  public func didChangeValue<Value>(for keyPath: KeyPath<Self, Value>) throws(KeyValueError) {
    manualDidChange(try manualStep(for: keyPath))
  }

  /// ``willChangeValue(for:)`` for a key given by name.
  public func willChangeValue(forKey key: String) throws(KeyValueError) {
    manualWillChange(try manualStep(forKey: key))
  }

  /// ``didChangeValue(for:)`` for a key given by name.
  public func didChangeValue(forKey key: String) throws(KeyValueError) {
    manualDidChange(try manualStep(forKey: key))
  }

  /// Will-time of a manual change: prior notifications and old values, from the key's
  /// observers as they are now; the frame waits for its did-time on this thread.
  private func manualWillChange(_ step: KeyStep) {
    guard let context = observationRegistrar.existingContext,
      let list = context.currentList(key: step.index)
    else {
      // Nobody observes the key: the pair still matches, and its did-time does nothing.
      observationRegistrar.context(of: self, table: step.table).pushManualFrame(
        ManualFrame(thread: currentThreadID(), key: step.index, frame: nil, old: nil))
      return
    }
    let old = step.entry.value(self)
    let frame = context.whileDelivering(list) {
      ChangeFrame.willChangeBoxed(self, list: list, kind: .setting, indexes: nil, old: old)
    }
    context.pushManualFrame(ManualFrame(thread: currentThreadID(), key: step.index, frame: frame, old: old))
  }

  /// Did-time of a manual change: finishes the innermost matching will-time on this thread.
  private func manualDidChange(_ step: KeyStep) {
    guard let context = observationRegistrar.existingContext,
      let pending = context.popManualFrame(thread: currentThreadID(), key: step.index),
      let frame = pending.frame
    else { return }
    let new = step.entry.value(self)
    context.whileDelivering(frame.list) { frame.didChangeBoxed(self, old: pending.old, new: new) }
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
