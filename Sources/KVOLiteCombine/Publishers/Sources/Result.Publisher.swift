extension Result {
  /// A publisher of a result: its success value then `.finished`, or its failure at once. The
  /// subscription of a success describes itself as "Once" and delivers on the first request;
  /// requesting `.none` traps.
  public struct Publisher: KVOLiteCombine.Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Success

    /// The result published.
    public let result: Result<Success, Failure>

    /// A publisher of `result`.
    public init(_ result: Result<Success, Failure>) {
      self.result = result
    }

    /// A publisher of a success.
    public init(_ output: Success) {
      result = .success(output)
    }

    /// A publisher of a failure.
    public init(_ failure: Failure) {
      result = .failure(failure)
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Success, S.Failure == Failure {
      switch result {
      case .success(let output):
        subscriber.receive(
          subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Once")
        )
      case .failure(let error):
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
      }
    }
  }

  /// A publisher of this result.
  public var publisher: Publisher { Publisher(self) }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
