extension ObservationToken: Cancellable {
  /// Ends the observation; the same as ``invalidate()``.
  public func cancel() { invalidate() }
}
