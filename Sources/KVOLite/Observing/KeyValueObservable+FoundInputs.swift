extension KeyValueObservable {
  /// Starts an observation of a computed value whose inputs are found by reading it (see
  /// ``FoundInputsObservation``), with the declared `branches` of a derived key, if any; its
  /// `.initial` notification is the caller's, sent by `sendInitial`.
  ///
  /// - Throws: the branches' ``KeyValueError``, or `unobservable` when nothing is watched (no
  ///   declared inputs, and the getter read no ``Observed`` key). Nothing is registered then.
  func startFoundInputs<Value>(
    branches: [[KeyStep]], wiringFrom: Int, options: ObservingOptions,
    read: @escaping (Self) -> Value, handler: @escaping (Self, KeyValueChange<Value>) -> Void,
    unobservable: KeyValueError?
  ) throws(KeyValueError) -> (token: ObservationToken, sendInitial: () -> Void) {
    let observation = FoundInputsObservation(
      root: self, branches: branches, wiringFrom: wiringFrom, options: options, read: read,
      handler: handler)
    let watches: Bool
    do {
      watches = try observation.start()
    } catch {
      observation.invalidate()
      throw error
    }
    if !watches, let unobservable {
      observation.invalidate()
      throw unobservable
    }
    return (
      ObservationToken(observation),
      { if options.contains(.initial) { observation.sendInitial() } }
    )
  }
}
