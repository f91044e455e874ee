/// A publisher that fails at once with the given error, publishing nothing.
///
/// Each subscriber receives ``Subscriptions/empty`` and then the failure.
public struct Fail<Output, Failure: Error>: Publisher {
  /// The error it fails with.
  public let error: Failure

  /// A publisher that fails with `error`.
  public init(error: Failure) {
    self.error = error
  }

  /// A publisher of `Output` values that fails with `failure`.
  public init(outputType: Output.Type, failure: Failure) {
    error = failure
  }

  /// Attaches `subscriber`: it receives its subscription, then values within the demand it
  /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subscriber.receive(subscription: Subscriptions.empty)
    subscriber.receive(completion: .failure(error))
  }
}

extension Fail: Equatable where Failure: Equatable {}
