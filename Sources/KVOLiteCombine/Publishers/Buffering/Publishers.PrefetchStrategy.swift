extension Publishers {
  /// When ``Publishers/Buffer`` asks its upstream for values.
  public enum PrefetchStrategy: Equatable, Hashable, Sendable {
    /// Ask for the buffer's size at subscription, and for one more each time a value goes
    /// downstream, so that the buffer stays full.
    case keepFull
    /// Ask for everything (`.unlimited`) at subscription.
    case byRequest
  }

  /// What ``Publishers/Buffer`` does with a value that arrives when the buffer is full.
  public enum BufferingStrategy<Failure: Error> {
    /// Drop the value that just arrived.
    case dropNewest
    /// Drop the oldest buffered value to make room.
    case dropOldest
    /// Cancel upstream and fail with the error the closure makes.
    case customError(() -> Failure)
  }
}
