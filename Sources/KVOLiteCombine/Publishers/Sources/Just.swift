/// A publisher that emits one value to each subscriber, then finishes.
public struct Just<Output>: Publisher {
  /// The kind of errors this publisher might publish.
  public typealias Failure = Never

  /// The value it publishes.
  public let output: Output

  /// A publisher of `output`.
  public init(_ output: Output) {
    self.output = output
  }

  /// Attaches `subscriber`: it receives its subscription, then values within the demand it
  /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subscriber.receive(
      subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Just"))
  }
}

extension Just: Equatable where Output: Equatable {}
