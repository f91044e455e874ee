import KVOLite
import KVOLiteTestSupport

extension Locked where Value == [ObservationToken] {
  /// Invalidates the tokens handed over so far, and lets go of them: taken under the lock,
  /// invalidated after it (invalidating may wait for deliveries, and releases run deinits).
  func invalidateAll() {
    let tokens = withLock { tokens in
      defer { tokens = [] }
      return tokens
    }
    for token in tokens { token.invalidate() }
  }
}
