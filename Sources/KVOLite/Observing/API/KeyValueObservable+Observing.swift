import KVOLiteLocking

extension KeyValueObservable {
  /// Observes a typed key path: one declared key (`\.firstName`) or a chain of them
  /// (`\.recipient.postalAddress.street`), with Foundation's signature.
  ///
  /// With ``ObservingOptions/initial``, the handler is called once before this method returns
  /// (after the observation is registered). After that it is called after every change, on the
  /// thread that made it, in registration order among the observers of the same change. For a
  /// chain, a change at any level gives one notification, and a replaced intermediate object is
  /// detached (and not retained). A derived key that a key of every element of a to-many
  /// relationship affects follows the elements, one change at a time (see
  /// ``observe(_:options:changeHandler:)-(String,_,_)``).
  ///
  /// A typed key path that cannot be observed is a programming error, as in Foundation (which
  /// raises an exception there): a key path not made of keys declared in ``observableKeys``, or
  /// a key declared as notifying automatically that is not an ``Observed`` property, stops the
  /// program with a message that names the property (`Contact.nickname is not declared in
  /// Contact.observableKeys`) and lists every other problem of the type's declarations (a plain
  /// `var` declared as notifying, which needs `@Observed`). String key paths
  /// (``observe(_:options:changeHandler:)-(String,_,_)``) throw typed errors instead.
  ///
  /// - Parameters:
  ///   - keyPath: A key path made of keys declared in ``observableKeys``.
  ///   - options: What to deliver; none by default, as in Foundation.
  ///   - changeHandler: Called with the observed object and the change.
  /// - Returns: A token that ends the observation when invalidated or released.
  @inlinable
  public func observe<Value>(
    _ keyPath: KeyPath<Self, Value>, options: ObservingOptions = [],
    changeHandler: @escaping (Self, KeyValueChange<Value>) -> Void
  ) -> ObservationToken {
    do {
      return try observeTyped(keyPath, options: options, changeHandler: changeHandler)
    } catch {
      fatalError(Self.diagnosis(error, keyPath: keyPath, object: self))
    }
  }

  /// ``observe(_:options:changeHandler:)-(KeyPath<Self,Value>,_,_)`` with its error thrown.
  ///
  /// Inlinable so that registering one key seen before (the direct plan's fast path) is
  /// specialized in the client.
  @inlinable
  func observeTyped<Value>(
    _ keyPath: KeyPath<Self, Value>, options: ObservingOptions,
    changeHandler: @escaping (Self, KeyValueChange<Value>) -> Void
  ) throws(KeyValueError) -> ObservationToken {
    let table = KeyTable.of(self)
    guard let index = table.directIndex(of: keyPath, on: self) else {
      return try observePlanned(keyPath, options: options, changeHandler: changeHandler)
    }
    return try observeDirect(
      keyPath, key: index, in: table, options: options, changeHandler: changeHandler)
  }

  /// Registers a direct observation of key `index` of `table` (this object's class's), which
  /// `keyPath` reads.
  @inlinable
  func observeDirect<Value>(
    _ keyPath: KeyPath<Self, Value>, key index: Int, in table: KeyTable,
    options: ObservingOptions, changeHandler: @escaping (Self, KeyValueChange<Value>) -> Void
  ) throws(KeyValueError) -> ObservationToken {
    let record = try observationRegistrar.registerDirect(on: self, key: index, in: table) {
      TypedRecord<Self, Value>(context: $0, keyIndex: $1, options: options, handler: changeHandler)
    }
    if options.contains(.initial) { record.sendInitial(self, self[keyPath: keyPath]) }
    return ObservationToken(record)
  }

  /// The part of ``observeTyped(_:options:changeHandler:)`` for key paths not seen before as
  /// one key: resolved (by probing the first time), planned, and started as the plan says.
  @usableFromInline
  func observePlanned<Value>(
    _ keyPath: KeyPath<Self, Value>, options: ObservingOptions,
    changeHandler: @escaping (Self, KeyValueChange<Value>) -> Void
  ) throws(KeyValueError) -> ObservationToken {
    let table = KeyTable.of(self)
    let steps = table.resolution(of: keyPath, probing: self) { ($0 as! Self)[keyPath: keyPath] }
    let plan = try ObservationPlan.of(
      typed: steps, on: self,
      undeclared: .undeclaredKeyPath(keyPath: KeyTable.describe(keyPath), type: table.typeName))
    let started: (token: ObservationToken, sendInitial: () -> Void)
    switch plan {
    case .direct(let step):
      return try observeDirect(
        keyPath, key: step.index, in: step.table, options: options, changeHandler: changeHandler)
    case .links(let links):
      started = try startLinks(
        links, options: options, read: { $0[keyPath: keyPath] }, elements: { $0 as! Value },
        handler: changeHandler)
    case .aggregate(let steps, let expansion, _):
      started = try AggregateObservation.start(
        on: self, steps: steps, expansion: expansion, operator: nil, options: options,
        read: { $0[keyPath: keyPath] }, handler: changeHandler)
    case .elements, .forwarded:
      // Only string key paths go through to-many relationships or past the declared types.
      fatalError("KVOLite: a typed key path was planned as a string key path")
    }
    started.sendInitial()
    return started.token
  }

  /// Observes a string key path such as `"recipient.postalAddress.street"` or
  /// `"contents.@count"`.
  ///
  /// The semantics are those of ``observe(_:options:changeHandler:)-(KeyPath<Self,Value>,_,_)``;
  /// the values are type-erased, optionals flattened (`nil` also where a relationship along the
  /// path is `nil`). A path may end in a collection operator, which notifies as a setting
  /// whenever the to-many relationship, or the key of an element it applies to, changes. A path
  /// may continue through a to-many relationship (`contents.weight`): it observes that key of
  /// every element, as replacements at the elements' indexes.
  ///
  /// Observations that follow elements (those two, and derived keys that a key of every
  /// element affects) call their handler for one change at a time, in order, and never on two
  /// threads at once: a change made while another thread delivers to the same observation is
  /// delivered by that thread, after the one in progress. Each change is stated against the
  /// ones delivered before it; see <doc:ObservingChanges>.
  ///
  /// - Throws: ``KeyValueError`` naming the problem: a malformed path, an unknown key (with the
  ///   type, the path so far and a close match), a path that continues after an attribute, an
  ///   index, an unknown or misplaced operator, or a key that never notifies. Nothing is
  ///   registered then.
  public func observe(
    _ keyPath: String, options: ObservingOptions = [],
    changeHandler: @escaping (KeyValueChange<Any?>) -> Void
  ) throws(KeyValueError) -> ObservationToken {
    let (token, sendInitial) = try register(keyPath, options: options, handler: changeHandler)
    sendInitial()
    return token
  }

  /// Registers an observation of a string key path as
  /// ``observe(_:options:changeHandler:)-(String,_,_)`` does, but leaves its `.initial`
  /// notification to the caller: `sendInitial` sends it (nothing without `.initial`, or once the
  /// token has ended). For registrations that must be complete before their first notification
  /// (several key paths at once, the classic observer API). Call `sendInitial` unless the token
  /// is ended: an observation that follows elements delivers nothing before it.
  func register(
    _ keyPath: String, options: ObservingOptions,
    handler: @escaping (KeyValueChange<Any?>) -> Void
  ) throws(KeyValueError) -> (token: ObservationToken, sendInitial: () -> Void) {
    let table = KeyTable.of(self)
    let plan: ObservationPlan
    do {
      plan = try ObservationPlan.of(keyPath, on: self, in: table)
    } catch {
      // A key of the observed path that is not a stored property, nor close to a key:
      // perhaps a computed property.
      guard case .unknownKey(let key, let type, let path, nil) = error,
        isOnPath(key, after: path, of: keyPath),
        KeyTable.plainVariableHint(forKey: key, ofTypeNamed: type) == nil,
        KeyTable.declarationHint(forTypeNamed: type) == nil
      else { throw error }
      throw .unknownKeyToObserve(key: key, type: type, path: path)
    }
    switch plan {
    case .direct(let step):
      // One stored key: a direct record, like a typed one-key observation.
      let record = try observationRegistrar.registerDirect(
        on: self, key: step.index, in: step.table
      ) {
        step.entry.makeErasedRecord!($0, $1, options, handler)
      }
      return (
        ObservationToken(record),
        {
          guard options.contains(.initial), record.isActive else { return }
          let current: Any?? =
            options.contains(.new) ? .some(step.entry.displayValue(of: self)) : nil
          DeliveryScope.run { handler(KeyValueChange(kind: .setting, newValue: current)) }
        }
      )
    case .links(let links):
      let path = try table.keyValuePath(keyPath)
      return try startLinks(
        links, options: options, read: { (try? path.value(of: $0)) ?? nil },
        elements: { KeyEntry.box($0) }, handler: { _, change in handler(change) })
    case .elements(let relationship, let rest):
      // A key of every element of a to-many relationship: `contents.weight`.
      return try ElementObservation.start(
        on: self, relationship: relationship, rest: rest, options: options, handler: handler)
    case .aggregate(let steps, let expansion, let `operator`):
      // A collection operator over the elements (`contents.@sum.weight`), or a derived key
      // over them.
      let path = try table.keyValuePath(keyPath)
      return try AggregateObservation<Self, Any?>.start(
        on: self, steps: steps, expansion: expansion, operator: `operator`, options: options,
        read: { (try? path.value(of: $0)) ?? nil }, handler: { _, change in handler(change) })
    case .forwarded(let prefix, let rest, let unresolved):
      // The declared types stop before the end: the rest is registered on the object there.
      return try ForwardedObservation.start(
        on: self, keyPath: keyPath, prefix: prefix, rest: rest, unresolved: unresolved,
        options: options, handler: handler)
    }
  }

  /// Starts a links observation (its links placed); its `.initial` notification is the
  /// caller's, sent by `sendInitial` (see ``register(_:options:handler:)``).
  private func startLinks<Value>(
    _ plan: LinksPlan, options: ObservingOptions, read: @escaping (Self) -> Value,
    elements: @escaping (Any) -> Value, handler: @escaping (Self, KeyValueChange<Value>) -> Void
  ) throws(KeyValueError) -> (token: ObservationToken, sendInitial: () -> Void) {
    let observation = TypedLinksObservation(
      root: self, plan: plan, options: options, read: read, elements: elements, handler: handler)
    do {
      try observation.start()
    } catch {
      observation.invalidate()
      throw error
    }
    return (
      ObservationToken(observation),
      { if options.contains(.initial) { observation.sendInitial() } }
    )
  }
}

extension ObservationRegistrar {
  /// Registers a direct observation of key `index` of `object`, made by `make` for the
  /// registrar's context: checks that the key can be observed, adds the record to the key's
  /// list, then marks the key's storage observed (in that order, so that a set in between
  /// cannot find the storage observed with the record missing and clear it).
  ///
  /// - Throws: ``KeyValueError/notObservable(key:type:)``; nothing is registered then.
  @usableFromInline
  func registerDirect<Record: Trigger>(
    on object: any KeyValueObservable, key index: Int, in table: KeyTable,
    make: (RegistrarContext, Int) -> Record
  ) throws(KeyValueError) -> Record {
    let (offset, key) = try table.storage(ofKey: index, probing: object)
    let record = make(context(of: object), key)
    // The object is alive (the caller holds it), so its registrar is not torn down.
    _ = record.context.add(record)
    if let offset {
      StorageState.markObserved(
        object, offset: offset, key: key, notifies: table.entries[index].notifiesAutomatically)
    }
    return record
  }
}

/// Whether the key `key`, after `path`, is on the observed key path `keyPath` itself (not
/// on a declared key's affecting path, where the declaration is what is wrong).
private func isOnPath(_ key: String, after path: String, of keyPath: String) -> Bool {
  let reached = path.isEmpty ? key : "\(path).\(key)"
  return keyPath == reached || keyPath.hasPrefix(reached + ".")
}
