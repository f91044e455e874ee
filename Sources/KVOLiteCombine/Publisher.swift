/// Declares that a type can transmit a sequence of values over time: Combine's `Publisher`.
///
/// A publisher delivers values to one or more ``Subscriber``s, within the demand they signal
/// through their ``Subscription``, followed by at most one completion. Code written against
/// Combine's names compiles against KVOLite by changing the import.
public protocol Publisher<Output, Failure> {
  /// The kind of values published.
  associatedtype Output
  /// The kind of errors this publisher might publish.
  associatedtype Failure: Error

  /// Attaches `subscriber`: the publisher calls its `receive(subscription:)` once, then
  /// delivers values within its demand, then at most one completion.
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
  /// Attaches `subscriber` (the spelling user code uses; `receive(subscriber:)` is the hook).
  @inlinable
  public func subscribe<S: Subscriber>(_ subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    receive(subscriber: subscriber)
  }
}
