/// A publisher that starts only when told to: Combine's `ConnectablePublisher`.
///
/// Subscribers can attach before ``connect()``; they receive values once it is called.
public protocol ConnectablePublisher<Output, Failure>: Publisher {
  /// Starts publishing; cancelling the result stops it.
  func connect() -> any Cancellable
}

extension ConnectablePublisher {
  /// Connects when the first subscriber attaches, and disconnects when the last one cancels.
  ///
  ///     Timer.publish(every: 1, on: .main, in: .common).autoconnect()
  public func autoconnect() -> Publishers.Autoconnect<Self> {
    Publishers.Autoconnect(upstream: self)
  }
}
