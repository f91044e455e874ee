/// A publisher that makes its real publisher only when a subscriber arrives, once per
/// subscriber.
///
///     Deferred { Future { promise in load(promise) } }  // loads once per subscription, not at creation
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
  /// The kind of values this publisher publishes.
  public typealias Output = DeferredPublisher.Output
  /// The kind of errors this publisher might publish.
  public typealias Failure = DeferredPublisher.Failure

  /// Makes the publisher for a new subscriber (on the subscribing thread).
  public let createPublisher: () -> DeferredPublisher

  /// A publisher that subscribes each subscriber to a new `createPublisher()`.
  public init(createPublisher: @escaping () -> DeferredPublisher) {
    self.createPublisher = createPublisher
  }

  /// Attaches `subscriber`: it receives its subscription, then values within the demand it
  /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    createPublisher().subscribe(subscriber)
  }
}
