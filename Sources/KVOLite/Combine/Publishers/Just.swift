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
    subscriber.receive(subscription: JustSubscription(value: output, downstream: subscriber))
  }
}

extension Just: Equatable where Output: Equatable {}

/// Delivers its value and the completion on the first request; describes itself as "Just",
/// with the value as its mirror's one child. Requesting `.none` traps, as in Combine.
private final class JustSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
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
    precondition(demand > 0, "a subscriber must request at least one value, not \(demand)")
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

  var description: String { "Just" }
  var customMirror: Mirror { Mirror(self, unlabeledChildren: CollectionOfOne(value)) }
  var playgroundDescription: Any { description }
}
