extension KeyValueObservable {
  /// Registers `observer` for changes of `keyPath`, Foundation's way: each change calls its
  /// ``KeyValueObserver/observeValue(forKeyPath:of:change:context:)`` with `context`.
  ///
  /// The same observer may be added several times (for the same key path too); each addition
  /// is a registration of its own, removed by one ``removeObserver(_:forKeyPath:context:)``.
  /// Notifications begin once the registration is complete (a change made on another thread
  /// while this method runs may not be delivered, as it may have come first), so the observer
  /// may remove it from inside any of them, the `.initial` one included (Foundation sends that
  /// one before the registration exists, and raises "not registered" there).
  ///
  /// - Lifetime: neither the observer nor the object is retained by the registration. A
  ///   registration whose observer is gone delivers nothing; all of an object's registrations
  ///   end when it is released.
  /// A key path that reaches an object whose type lacks the next key (`holder.registrar.name`,
  /// where `registrar` holds an object whose class takes registrations over, or is of a
  /// subclass that has the key) hands the rest of the path (`name`) to that object's own
  /// `addObserver`, as Foundation does, and relays what it reports as changes of the whole
  /// path, `of` this object; replacing that object moves the registration to the new one.
  ///
  /// - Throws: ``KeyValueError``, as ``observe(_:options:changeHandler:)-(String,_,_)`` throws;
  ///   nothing is registered then.
  public func addObserver(
    _ observer: any KeyValueObserver, forKeyPath keyPath: String, options: ObservingOptions,
    context: UnsafeMutableRawPointer?
  ) throws(KeyValueError) {
    let tag = context.map { UInt(bitPattern: $0) }
    // The registration delivers nothing until it is kept below, so that a removal from inside
    // any of its notifications finds it: the `.initial` one, or one that a set on another
    // thread makes while this call runs (which may as well have come before it, and is
    // dropped; a path that follows elements queues it instead, and delivers it after the
    // `.initial` one).
    let registration = ClassicRegistration(
      observer: ObjectIdentifier(observer), keyPath: keyPath, context: context)
    // The registration holds the token, so the handler holds the registration weakly (the
    // registrar's list keeps it while it is registered): a strong capture was a cycle that
    // kept every removed registration, its token and its object's registrar context forever.
    let (token, sendInitial) = try register(keyPath, options: options) {
      [weak observer, weak self, weak registration] change in
      guard let registration, registration.isKept, let observer, let self else { return }
      observer.observeValue(
        forKeyPath: keyPath, of: self, change: change,
        context: tag.flatMap { UnsafeMutableRawPointer(bitPattern: $0) })
    }
    registration.token = token
    // The object is alive (the caller holds it), so its registrar is not torn down.
    _ = observationRegistrar.context(of: self).addClassic(registration)
    sendInitial()
  }

  /// ``addObserver(_:forKeyPath:options:context:)`` with no options and no context, through the
  /// object's own implementation.
  public func addObserver(_ observer: any KeyValueObserver, forKeyPath keyPath: String)
    throws(KeyValueError)
  {
    try addObserver(observer, forKeyPath: keyPath, options: [], context: nil)
  }

  /// ``addObserver(_:forKeyPath:options:context:)`` with no context, through the object's own
  /// implementation.
  public func addObserver(
    _ observer: any KeyValueObserver, forKeyPath keyPath: String, options: ObservingOptions
  ) throws(KeyValueError) {
    try addObserver(observer, forKeyPath: keyPath, options: options, context: nil)
  }

  /// ``addObserver(_:forKeyPath:options:context:)`` with no options, through the object's own
  /// implementation.
  public func addObserver(
    _ observer: any KeyValueObserver, forKeyPath keyPath: String,
    context: UnsafeMutableRawPointer?
  ) throws(KeyValueError) {
    try addObserver(observer, forKeyPath: keyPath, options: [], context: context)
  }

  /// Removes the most recent registration of `observer` for `keyPath` with `context` (which
  /// must match, `nil` included). Removing what was never added, or twice, does nothing.
  /// From inside a notification it is safe, and no later notification of that registration
  /// follows; from another thread it waits for a notification in flight.
  public func removeObserver(
    _ observer: any KeyValueObserver, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?
  ) {
    removeClassic(observer, keyPath) { $0.context == context }
  }

  /// Removes the most recent registration of `observer` for `keyPath`, whatever its context.
  /// Removing what was never added does nothing.
  public func removeObserver(_ observer: any KeyValueObserver, forKeyPath keyPath: String) {
    removeClassic(observer, keyPath) { _ in true }
  }

  private func removeClassic(
    _ observer: any KeyValueObserver, _ keyPath: String, matching: (ClassicRegistration) -> Bool
  ) {
    guard let context = observationRegistrar.existingContext else { return }
    let identity = ObjectIdentifier(observer)
    context.removeClassic { $0.observer == identity && $0.keyPath == keyPath && matching($0) }
  }
}
