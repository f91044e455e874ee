import KVOLiteLocking

extension Publishers {
  /// A publisher of the running accumulation of its upstream's values: each value is combined
  /// with the accumulation so far, and the new accumulation is published.
  ///
  /// Like ``Map``, it adds no subscription of its own: downstream receives upstream's
  /// subscription. Its subscriber describes itself as "Scan", with `downstream` and `result` in
  /// its mirror.
  public struct Scan<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are accumulated.
    public let upstream: Upstream
    /// The accumulation before the first value.
    public let initialResult: Output
    /// Takes the accumulation so far and a value to the next accumulation.
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    /// A publisher of the running accumulation of `upstream`'s values from `initialResult`.
    public init(
      upstream: Upstream, initialResult: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        ScanInner(
          downstream: subscriber, initialResult: initialResult, nextPartialResult: nextPartialResult
        ))
    }
  }
}

/// What `scan` subscribes to upstream. Values arrive one at a time, so the accumulation needs
/// no lock (as in Combine).
private final class ScanInner<Input, Downstream: Subscriber>: Subscriber, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: `result` is touched only by `receive(_:)`, which is never concurrent.
  typealias Failure = Downstream.Failure

  private let downstream: Downstream
  private let nextPartialResult: (Downstream.Input, Input) -> Downstream.Input
  private var result: Downstream.Input

  init(
    downstream: Downstream, initialResult: Downstream.Input,
    nextPartialResult: @escaping (Downstream.Input, Input) -> Downstream.Input
  ) {
    self.downstream = downstream
    result = initialResult
    self.nextPartialResult = nextPartialResult
  }

  func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }

  func receive(_ input: Input) -> Subscribers.Demand {
    result = nextPartialResult(result, input)
    return downstream.receive(result)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  var description: String { "Scan" }
  var customMirror: Mirror {
    Mirror(self, children: [("downstream", downstream as Any), ("result", result as Any)])
  }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Publishes the running accumulation of every value, from `initialResult`.
  ///
  ///     [1, 2, 3].publisher.scan(0, +)  // publishes 1, 3, 6
  public func scan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T)
    -> Publishers.Scan<Self, T>
  {
    Publishers.Scan(
      upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }
}
