/// A publisher that emits one value to each subscriber, then finishes.
public struct Just<Output>: Publisher {
  public typealias Failure = Never

  /// The value it publishes.
  public let output: Output

  /// A publisher of `output`.
  public init(_ output: Output) {
    self.output = output
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subscriber.receive(subscription: SingleValueSubscription(value: output, downstream: subscriber, name: "Just"))
  }
}

extension Just: Equatable where Output: Equatable {}
