import Foundation

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
  /// As in Foundation, it does not throw: a key path that is not a key of this type is a
  /// programming error, which stops the program with a message naming the property and the
  /// fix, as ``observe(_:options:changeHandler:)-(KeyPath<Self,Value>,_,_)`` does. (The forms
  /// that take a key's name throw instead.)
  public func willChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
    manualWillChange(typedManualStep(for: keyPath, in: "willChangeValue(for:)"))
  }

  /// ``willChangeValue(for:)`` for a change to `newValue`, known now: the did-time
  /// notification then carries `newValue` rather than the value read at did-time. For a type
  /// that notifies its own sets (``ObservableBox``), so that each of several sets racing on
  /// several threads reports the value it stored, not another thread's.
  package func willChangeValue<Value>(for keyPath: KeyPath<Self, Value>, to newValue: Value)
    throws(KeyValueError)
  {
    let step = try manualStep(for: keyPath)
    manualWillChange(
      step, kind: .setting, indexes: nil, old: step.entry.value(self), new: newValue as Any)
  }

  /// Announces that the value of a declared key has changed; see ``willChangeValue(for:)``.
  /// Does not throw: a key path that is not a key stops the program, as there.
  public func didChangeValue<Value>(for keyPath: KeyPath<Self, Value>) {
    manualDidChange(typedManualStep(for: keyPath, in: "didChangeValue(for:)"))
  }

  /// ``willChangeValue(for:)`` for a key given by name.
  public func willChangeValue(forKey key: String) throws(KeyValueError) {
    manualWillChange(try manualStep(forKey: key))
  }

  /// ``didChangeValue(for:)`` for a key given by name.
  public func didChangeValue(forKey key: String) throws(KeyValueError) {
    manualDidChange(try manualStep(forKey: key))
  }

  /// Announces that elements of a to-many key are about to be inserted, removed or replaced at
  /// `indexes` (Foundation's `willChange(_:valuesAt:for:)`); pair it with
  /// ``didChange(_:valuesAt:for:)``, as ``willChangeValue(for:)`` pairs with
  /// ``didChangeValue(for:)``. Observers get the kind and the indexes; `.old` is the elements
  /// at the indexes now (for a removal or replacement), `.new` the elements at the indexes at
  /// did-time (for an insertion or replacement), as Foundation computes them. `.setting`
  /// announces a change of the whole array, like ``willChangeValue(for:)``.
  ///
  /// As in Foundation, it does not throw. A key path that is not a to-many key of this type
  /// stops the program (as in ``willChangeValue(for:)``), and so does, while the key is
  /// observed, a removed or replaced index that is not in the array (Foundation raises a range
  /// exception there); unobserved, nothing is read, and nothing is checked.
  public func willChange<Element>(
    _ kind: KeyValueChangeKind, valuesAt indexes: IndexSet, for keyPath: KeyPath<Self, [Element]>
  ) {
    let step = typedManualStep(for: keyPath, in: "willChange(_:valuesAt:for:)")
    do {
      try manualWillChange(step, kind: kind, indexes: indexes)
    } catch {
      // Nothing was announced, so the did-time finds nothing to finish.
      guard observationRegistrar.existingContext?.currentList(key: step.index) != nil else {
        return
      }
      fatalError("KVOLite: willChange(.\(kind), valuesAt: …, for:) announces \(error)")
    }
  }

  /// Announces that the change announced by ``willChange(_:valuesAt:for:)`` has happened. Does
  /// not throw: while the key is observed, an inserted or replacing index that is not in the
  /// array stops the program, as Foundation raises a range exception.
  public func didChange<Element>(
    _ kind: KeyValueChangeKind, valuesAt indexes: IndexSet, for keyPath: KeyPath<Self, [Element]>
  ) {
    let step = typedManualStep(for: keyPath, in: "didChange(_:valuesAt:for:)")
    do {
      try manualDidChange(step, kind: kind, indexes: indexes)
    } catch {
      fatalError("KVOLite: didChange(.\(kind), valuesAt: …, for:) announces \(error)")
    }
  }

  /// ``willChange(_:valuesAt:for:)`` for a to-many key given by name.
  /// - Throws: also ``KeyValueError/notARelationship(key:type:role:)`` if the key is not to-many.
  public func willChange(_ kind: KeyValueChangeKind, valuesAt indexes: IndexSet, forKey key: String)
    throws(KeyValueError)
  {
    try manualWillChange(try toManyStep(forKey: key), kind: kind, indexes: indexes)
  }

  /// ``didChange(_:valuesAt:for:)`` for a to-many key given by name.
  public func didChange(_ kind: KeyValueChangeKind, valuesAt indexes: IndexSet, forKey key: String)
    throws(KeyValueError)
  {
    try manualDidChange(try toManyStep(forKey: key), kind: kind, indexes: indexes)
  }

  private func toManyStep(forKey key: String) throws(KeyValueError) -> KeyStep {
    let step = try manualStep(forKey: key)
    guard step.entry.role == .toMany else {
      throw .notARelationship(key: key, type: step.table.typeName, role: step.entry.role)
    }
    return step
  }

  /// The elements of to-many key `step` at `indexes`, boxed as an array.
  /// - Throws: ``KeyValueError/indexOutOfRange(index:count:path:)``.
  private func elements(of step: KeyStep, at indexes: IndexSet) throws(KeyValueError) -> Any {
    let all = step.entry.elements?(self) ?? []
    var picked: [Any] = []
    for index in indexes {
      guard index < all.count else {
        throw .indexOutOfRange(index: index, count: all.count, path: step.entry.name)
      }
      picked.append(all[index])
    }
    return picked
  }

  /// Will-time of a manual change of elements: the removed or replaced elements are the old
  /// value. A `.setting` is a change of the whole value.
  private func manualWillChange(_ step: KeyStep, kind: KeyValueChangeKind, indexes: IndexSet)
    throws(KeyValueError)
  {
    guard kind != .setting else { return manualWillChange(step) }
    let old = kind == .insertion ? nil : try elements(of: step, at: indexes)
    manualWillChange(step, kind: kind, indexes: indexes, old: old)
  }

  /// Did-time of a manual change of elements: the inserted or replacing elements are the new
  /// value.
  private func manualDidChange(_ step: KeyStep, kind: KeyValueChangeKind, indexes: IndexSet)
    throws(KeyValueError)
  {
    guard kind != .setting else { return manualDidChange(step) }
    guard let context = observationRegistrar.existingContext,
      let pending = context.popManualFrame(thread: currentThreadID(), key: step.index),
      let frame = pending.frame
    else { return }
    let new = kind == .removal ? nil : try elements(of: step, at: indexes)
    context.whileDelivering(frame.list) { frame.didChangeBoxed(self, old: pending.old, new: new) }
  }

  /// Will-time of a manual change: prior notifications and old values, from the key's
  /// observers as they are now; the frame waits for its did-time on this thread.
  private func manualWillChange(_ step: KeyStep) {
    manualWillChange(step, kind: .setting, indexes: nil, old: step.entry.value(self))
  }

  /// Will-time of a manual change; `new`, if given, is the value the did-time reports.
  private func manualWillChange(
    _ step: KeyStep, kind: KeyValueChangeKind, indexes: IndexSet?, old: Any?, new: Any? = nil
  ) {
    guard let context = observationRegistrar.existingContext,
      let list = context.currentList(key: step.index)
    else {
      // Nobody observes the key: the pair still matches, and its did-time does nothing.
      observationRegistrar.context(of: self).pushManualFrame(
        ManualFrame(thread: currentThreadID(), key: step.index, frame: nil, old: nil, new: nil))
      return
    }
    let frame = context.whileDelivering(list) {
      ChangeFrame.willChangeBoxed(self, list: list, kind: kind, indexes: indexes, old: old)
    }
    context.pushManualFrame(
      ManualFrame(thread: currentThreadID(), key: step.index, frame: frame, old: old, new: new))
  }

  /// Did-time of a manual change: finishes the innermost matching will-time on this thread.
  private func manualDidChange(_ step: KeyStep) {
    guard let context = observationRegistrar.existingContext,
      let pending = context.popManualFrame(thread: currentThreadID(), key: step.index),
      let frame = pending.frame
    else { return }
    let new = pending.new ?? step.entry.value(self)
    context.whileDelivering(frame.list) { frame.didChangeBoxed(self, old: pending.old, new: new) }
  }

  /// The key of a typed manual notification; a key path that is not a key stops the program,
  /// with the message ``observe(_:options:changeHandler:)-(KeyPath<Self,Value>,_,_)`` gives.
  private func typedManualStep<Value>(for keyPath: KeyPath<Self, Value>, in call: String)
    -> KeyStep
  {
    do {
      return try manualStep(for: keyPath)
    } catch {
      fatalError(
        Self.diagnosis(error, keyPath: keyPath, object: self, action: "notify a change of"))
    }
  }

  private func manualStep<Value>(for keyPath: KeyPath<Self, Value>) throws(KeyValueError)
    -> KeyStep
  {
    let table = KeyTable.of(self)
    let steps = try table.resolve(keyPath, probing: self) { ($0 as! Self)[keyPath: keyPath] }
    guard steps.count == 1 else {
      throw .undeclaredKeyPath(keyPath: KeyTable.describe(keyPath), type: table.typeName)
    }
    return observedStep(steps[0])
  }

  private func manualStep(forKey key: String) throws(KeyValueError) -> KeyStep {
    let steps = try KeyTable.of(self).resolve(KeyPathString(key))
    guard steps.count == 1 else {
      throw .malformedKeyPath(path: key, reason: "manual notification takes a single key")
    }
    return observedStep(steps[0])
  }

  /// The key whose observers `step`'s notifications reach: itself, or, for a key declared
  /// under another name of an ``Observed`` property, the property's key.
  private func observedStep(_ step: KeyStep) -> KeyStep {
    let key = (try? step.table.storage(ofKey: step.index, probing: self).key) ?? step.index
    return KeyStep(table: step.table, index: key)
  }
}
