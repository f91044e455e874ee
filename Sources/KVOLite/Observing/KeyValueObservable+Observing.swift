extension KeyValueObservable {
  /// Observes a typed key path: one declared key (`\.firstName`) or a chain of them
  /// (`\.recipient.postalAddress.street`, `\.sender?.firstName`).
  ///
  /// With ``ObservingOptions/initial``, the handler is called once before this method returns.
  /// After that it is called after every change, on the thread that made it, in registration
  /// order among the observers of the same change. For a chain, a change at any level gives one
  /// notification, and a replaced intermediate object is detached (and not retained).
  ///
  /// - Parameters:
  ///   - keyPath: A key path made of keys declared in ``observableKeys``.
  ///   - options: What to deliver; none by default, as in Foundation.
  ///   - changeHandler: Called with the observed object and the change.
  /// - Returns: A token that cancels the observation when invalidated or released.
  /// - Throws: ``KeyValueError/undeclaredKeyPath(keyPath:type:)`` if `keyPath` is not made of
  ///   declared keys.
  @inlinable
  public func observe<Value>(
    _ keyPath: KeyPath<Self, Value>, options: ObservingOptions = [],
    changeHandler: @escaping (Self, KeyValueChange<Value>) -> Void
  ) throws(KeyValueError) -> ObservationToken {
    // Inlinable so that registering one declared key is specialized in the client.
    let record = TypedRecord<Self, Value>(options: options, handler: changeHandler)
    guard
      try observationRegistrar.addDirect(
        record, for: keyPath, of: self, in: Self.observableKeys.table)
    else {
      return try observeChain(keyPath, options: options, changeHandler: changeHandler)
    }
    if options.contains(.initial), record.isActive {
      let current: Value? = options.contains(.new) ? self[keyPath: keyPath] : nil
      changeHandler(self, KeyValueChange(kind: .setting, newValue: current))
    }
    return ObservationToken(record)
  }

  /// The part of ``observe(_:options:changeHandler:)-(KeyPath<Self,Value>,_,_)`` for chains
  /// and derived keys.
  @usableFromInline
  func observeChain<Value>(
    _ keyPath: KeyPath<Self, Value>, options: ObservingOptions,
    changeHandler: @escaping (Self, KeyValueChange<Value>) -> Void
  ) throws(KeyValueError) -> ObservationToken {
    let steps = try Self.observableKeys.table.resolve(keyPath)
    return try startPathObservation(
      steps: steps, hasOperator: false, options: options, read: { $0[keyPath: keyPath] },
      elements: { $0 as! Value }, handler: changeHandler)
  }

  /// Observes a string key path such as `"recipient.postalAddress.street"` or
  /// `"contents.@count"`.
  ///
  /// The semantics are those of ``observe(_:options:changeHandler:)-(KeyPath<Self,Value>,_,_)``;
  /// the values are type-erased, optionals flattened (`nil` also where a relationship along the
  /// path is `nil`). A path may end in a collection operator, which notifies as a setting
  /// whenever the to-many relationship changes.
  ///
  /// - Throws: ``KeyValueError`` naming the problem: a malformed path, an unknown key (with the
  ///   type, the path so far and a close match), a path that continues after an attribute or
  ///   through a to-many relationship, an index, an unknown or misplaced operator, or a key
  ///   that never notifies.
  public func observe(
    _ keyPath: String, options: ObservingOptions = [],
    changeHandler: @escaping (KeyValueChange<Any?>) -> Void
  ) throws(KeyValueError) -> ObservationToken {
    let path = try Self.observableKeys.table.keyValuePath(keyPath)
    let (steps, hasOperator) = try path.observedSteps()
    if steps.count == 1, !hasOperator, let make = steps[0].entry.makeErasedRecord {
      // One stored key: a direct record, like a typed one-key observation (and, like it, with
      // no weak reference to this object: those make every retain of it slower).
      let step = steps[0]
      try observationRegistrar.stamp(self, key: step.index, entry: step.entry, typeName: step.table.typeName)
      let record = make(options, changeHandler)
      _ = observationRegistrar.add(record, key: step.index)
      if options.contains(.initial), record.isActive {
        let current: Any?? = options.contains(.new) ? .some(step.entry.displayValue(of: self)) : nil
        changeHandler(KeyValueChange(kind: .setting, newValue: current))
      }
      return ObservationToken(record)
    }
    return try startPathObservation(
      steps: steps, hasOperator: hasOperator, options: options,
      read: { (try? path.value(of: $0)) ?? nil }, elements: { KeyEntry.box($0) },
      handler: { _, change in changeHandler(change) })
  }

  private func startPathObservation<Value>(
    steps: [KeyStep], hasOperator: Bool, options: ObservingOptions,
    read: @escaping (Self) -> Value, elements: @escaping (Any) -> Value,
    handler: @escaping (Self, KeyValueChange<Value>) -> Void
  ) throws(KeyValueError) -> ObservationToken {
    let last = steps.last!.entry
    let observation = TypedPathObservation(
      root: self, branches: try DependencyExpansion.branches(for: steps),
      isExactToMany: last.role == .toMany && !hasOperator, isDerived: last.role == .derived,
      options: options, read: read, elements: elements, handler: handler)
    do {
      try observation.rewire()
    } catch {
      observation.invalidate()
      throw error
    }
    if options.contains(.initial) { observation.sendInitial() }
    return ObservationToken(observation)
  }
}

/// Reads the value at the end of `steps` starting from `root`, flattened; `nil` if a
/// relationship along the way is `nil`.
func readValue(of root: AnyObject, along steps: [KeyStep]) -> Any? {
  var object: AnyObject = root
  for step in steps.dropLast() {
    guard let next = step.entry.related?(object) else { return nil }
    object = next
  }
  return steps.last!.entry.displayValue(of: object)
}
