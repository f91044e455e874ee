extension Publisher {
  /// Replaces each `nil` value with `output`: a ``Publishers/Map``, as in Combine.
  ///
  ///     names.replaceNil(with: "(none)")
  public func replaceNil<T>(with output: T) -> Publishers.Map<Self, T> where Output == T? {
    map { $0 ?? output }
  }
}
