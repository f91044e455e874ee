extension KeyValueObservable {
  /// Observes several string key paths with one handler, which is told which key path changed.
  ///
  /// Each key path is observed as by ``observe(_:options:changeHandler:)-(String,_,_)`` with
  /// the same options (a key of every element, `contents.weight`, included); a key path given
  /// twice is observed twice. With `.initial`, the initial notifications come once every key
  /// path is observed, in the order given; a path that follows elements delivers the changes
  /// made meanwhile right after its own, before the next path's. The token ends every
  /// observation at once.
  ///
  /// - Throws: ``KeyValueError`` for the first key path that cannot be observed; then nothing
  ///   is registered (observations already made are ended, and no `.initial` notification has
  ///   been sent).
  public func observe(
    _ keyPaths: [String], options: ObservingOptions = [],
    changeHandler: @escaping (_ keyPath: String, _ change: KeyValueChange<Any?>) -> Void
  ) throws(KeyValueError) -> ObservationToken {
    var registered: [(token: ObservationToken, sendInitial: () -> Void)] = []
    for keyPath in keyPaths {
      do {
        registered.append(try register(keyPath, options: options) { changeHandler(keyPath, $0) })
      } catch {
        for (token, _) in registered { token.invalidate() }
        throw error
      }
    }
    for (_, sendInitial) in registered { sendInitial() }
    return ObservationToken(CompositeObservation(registered.map(\.token)))
  }
}

/// Several observations ended as one.
final class CompositeObservation: Observation, @unchecked Sendable {
  // @unchecked: `parts` is immutable; each token is thread-safe.
  private let parts: [ObservationToken]

  init(_ parts: [ObservationToken]) {
    self.parts = parts
  }

  override func invalidate() {
    for part in parts { part.invalidate() }
  }
}
