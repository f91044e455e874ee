import KVOLiteLocking

extension Publishers {
  /// ``Scan`` with a throwing closure: an error it throws cancels upstream and ends the
  /// publisher with that error. Its subscription is "TryScan".
  public struct TryScan<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher whose values are accumulated.
    public let upstream: Upstream
    /// The accumulation before the first value.
    public let initialResult: Output
    /// Takes the accumulation so far and a value to the next accumulation.
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    /// A publisher of the running accumulation of `upstream`'s values from `initialResult`.
    public init(
      upstream: Upstream, initialResult: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
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
        TryScanInner<Upstream.Output, Upstream.Failure, S>(
          downstream: subscriber, initialResult: initialResult, nextPartialResult: nextPartialResult
        ))
    }
  }
}

/// The subscription of `tryScan`, with Combine's behaviour: values are accumulated whatever
/// the state; a throw ends it (cancelling upstream) if it is subscribed; upstream's completion
/// is passed on while it is subscribed. Once it has completed downstream or been cancelled, it
/// lets go of its downstream and its closure.
private final class TryScanInner<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Failure == any Error {
  // @unchecked: `status`, `downstream` and `nextPartialResult` are behind `lock`; `result` is
  // touched only by `receive(_:)`.
  typealias Failure = UpstreamFailure
  typealias Next = (Downstream.Input, Input) throws -> Downstream.Input

  /// The subscriber and the closure, until the subscription ends.
  private var live: (downstream: Downstream, nextPartialResult: Next)?
  private var result: Downstream.Input
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription

  init(
    downstream: Downstream, initialResult: Downstream.Input,
    nextPartialResult: @escaping Next
  ) {
    live = (downstream, nextPartialResult)
    result = initialResult
  }

  func receive(subscription: any Subscription) {
    guard let live = lock.withLock({ status.accept(subscription) ? live : nil }) else {
      return subscription.cancel()
    }
    live.downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let live = lock.withLock({ live }) else { return .none }
    do {
      result = try live.nextPartialResult(result, input)
      return live.downstream.receive(result)
    } catch {
      let ended = lock.withLock { () -> (any Subscription, Downstream?)? in
        guard let subscription = status.subscription else { return nil }
        status = .terminal
        return (subscription, self.live.take()?.downstream)
      }
      guard let (subscription, downstream) = ended else { return .none }
      subscription.cancel()
      downstream?.receive(completion: .failure(error))
      return .none
    }
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    let downstream = lock.withLock { () -> Downstream? in
      guard status.isSubscribed else { return nil }
      status = .terminal
      return live.take()?.downstream
    }
    switch completion {
    case .finished: downstream?.receive(completion: .finished)
    case .failure(let error): downstream?.receive(completion: .failure(error))
    }
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let (subscription, live) = lock.withLock {
      () -> ((any Subscription)?, (downstream: Downstream, nextPartialResult: Next)?) in
      guard let subscription = status.subscription else { return (nil, nil) }
      status = .terminal
      return (subscription, self.live.take())
    }
    subscription?.cancel()
    _ = live
  }

  var description: String { "TryScan" }
  var customMirror: Mirror {
    Mirror(
      self,
      children: [
        ("downstream", lock.withLock { live?.downstream } as Any),
        ("status", lock.withLock { status } as Any),
        ("result", result as Any),
      ])
  }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// ``scan(_:_:)`` with a throwing closure; a thrown error ends the publisher.
  public func tryScan<T>(_ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T)
    -> Publishers.TryScan<Self, T>
  {
    Publishers.TryScan(
      upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }
}
