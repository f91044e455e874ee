extension KeyValueObservable {
  /// Observes several string key paths with one handler, which is told which key path changed.
  ///
  /// Each key path is observed as by ``observe(_:options:changeHandler:)-(String,_,_)`` with
  /// the same options, in the order given (so `.initial` notifications come in that order);
  /// a key path given twice is observed twice. The token ends every observation at once.
  ///
  /// - Throws: ``KeyValueError`` for the first key path that cannot be observed; then nothing
  ///   is registered (observations already made are ended, and no `.initial` notification has
  ///   been sent).
  public func observe(
    _ keyPaths: [String], options: ObservingOptions = [],
    changeHandler: @escaping (_ keyPath: String, _ change: KeyValueChange<Any?>) -> Void
  ) throws(KeyValueError) -> ObservationToken {
    // Every path is checked before any is registered, so that a failure sends nothing.
    for keyPath in keyPaths {
      _ = try KeyTable.of(self).keyValuePath(keyPath).observedSteps()
    }
    var tokens: [ObservationToken] = []
    for keyPath in keyPaths {
      do {
        tokens.append(try observe(keyPath, options: options) { changeHandler(keyPath, $0) })
      } catch {
        for token in tokens { token.invalidate() }
        throw error
      }
    }
    return ObservationToken(CompositeObservation(tokens))
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
