extension KeyValueObservable {
  /// The values of a key path as an `AsyncSequence`: `publisher(for:options:).values`.
  public func values<Value>(
    for keyPath: KeyPath<Self, Value>, options: ObservingOptions = [.initial, .new]
  ) -> AsyncPublisher<KeyValueObservingPublisher<Self, Value>> {
    publisher(for: keyPath, options: options).values
  }
}
