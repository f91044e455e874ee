/// A publisher that emits one value to each subscriber, then finishes.
public struct Just<Output>: Publisher {
  public typealias Failure = Never

  /// The value it publishes.
  public let output: Output

  public init(_ output: Output) {
    self.output = output
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subscriber.receive(subscription: JustSubscription(value: output, downstream: subscriber))
  }
}

extension Just: Equatable where Output: Equatable {}

/// Delivers its value and the completion on the first request for at least one value.
private final class JustSubscription<Downstream: Subscriber>: Subscription, @unchecked Sendable
where Downstream.Failure == Never {
  // @unchecked: `downstream` is taken once, under `lock`.
  private let lock = Lock()
  private let value: Downstream.Input
  private var downstream: Downstream?

  init(value: Downstream.Input, downstream: Downstream) {
    self.value = value
    self.downstream = downstream
  }

  func request(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    let taken = lock.withLock {
      defer { downstream = nil }
      return downstream
    }
    guard let taken else { return }
    _ = taken.receive(value)
    taken.receive(completion: .finished)
  }

  func cancel() {
    let taken = lock.withLock {
      defer { downstream = nil }
      return downstream
    }
    _ = taken
  }
}

/// A publisher that never publishes a value and optionally finishes at once.
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
  /// Whether it finishes as soon as it is subscribed to.
  public let completeImmediately: Bool

  public init(completeImmediately: Bool = true) {
    self.completeImmediately = completeImmediately
  }

  public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
    self.completeImmediately = completeImmediately
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subscriber.receive(subscription: Subscriptions.empty)
    if completeImmediately { subscriber.receive(completion: .finished) }
  }
}
