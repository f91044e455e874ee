/// A publisher that exposes a method for outside callers to publish values: Combine's `Subject`.
///
/// The subjects KVOLite ships (``PassthroughSubject``, ``CurrentValueSubject``) are
/// thread-safe, and deliver to each subscriber one value at a time: sends from several threads
/// at once reach a given subscriber serially, in an order that the race decides, never
/// concurrently. A subscriber may send to the subject from inside its own `receive`
/// (re-entrancy); that value is delivered at once, before the outer `receive` returns.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
  /// Sends a value to every subscriber that has demand for it.
  func send(_ value: Output)
  /// Sends a completion to every subscriber; later sends do nothing.
  func send(completion: Subscribers.Completion<Failure>)
  /// Receives an upstream subscription when the subject subscribes to a publisher
  /// (`publisher.subscribe(subject)`); the subject keeps it until it is released, and cancels
  /// it then.
  func send(subscription: any Subscription)
}

extension Subject where Output == Void {
  /// Sends `()`.
  public func send() { send(()) }
}
