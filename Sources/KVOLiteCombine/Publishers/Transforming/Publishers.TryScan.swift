import KVOLiteLocking

extension Publishers {
  /// ``Scan`` with a throwing closure: an error it throws cancels upstream and ends the
  /// publisher with that error. Its subscription is "TryScan" (see `TryScanInner` for the
  /// state machine). Thread-safe.
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

/// The subscription of `tryScan`, with Combine's state machine:
///
/// - every value is taken into the result and the result handed on, even before the
///   subscription and after the end (to a subscriber that is still alive, see
///   ``EndingDownstream``); the closure is kept for that as long as this object lives;
/// - a throw while subscribed cancels upstream and fails downstream; a throw otherwise drops
///   the value;
/// - completions are handed on while subscribed, each of them (as in Combine, a completion
///   does not end the subscription); a cancel while subscribed ends it; a request or cancel
///   before the subscription does nothing.
///
/// Thread-safe: the state and the result are behind `lock` (values arrive one at a time); the
/// closure and downstream are called after unlocking.
private final class TryScanInner<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Failure == any Error {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = UpstreamFailure
  typealias Next = (Downstream.Input, Input) throws -> Downstream.Input

  private var downstream: EndingDownstream<Downstream>
  private let nextPartialResult: Next
  private var result: Downstream.Input
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription

  init(
    downstream: Downstream, initialResult: Downstream.Input,
    nextPartialResult: @escaping Next
  ) {
    self.downstream = EndingDownstream(downstream)
    self.nextPartialResult = nextPartialResult
    result = initialResult
  }

  func receive(subscription: any Subscription) {
    guard
      let downstream = lock.withLock({ status.accept(subscription) ? downstream.live : nil })
    else {
      return subscription.cancel()
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let live = lock.withLock { () -> (Downstream, Downstream.Input)? in
      self.downstream.reachable.map { ($0, result) }
    }
    guard let (downstream, current) = live else { return .none }
    do {
      let next = try nextPartialResult(current, input)
      lock.withLock { result = next }
      return downstream.receive(next)
    } catch {
      let ended = lock.withLock { () -> (any Subscription, Downstream?)? in
        guard let subscription = status.subscription else { return nil }
        status = .terminal
        return (subscription, self.downstream.end())
      }
      guard let (subscription, ending) = ended else { return .none }
      subscription.cancel()
      withExtendedLifetime(ending) { downstream.receive(completion: .failure(error)) }
      return .none
    }
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    let downstream = lock.withLock { () -> Downstream? in
      guard status.isSubscribed else { return nil }
      return self.downstream.end() ?? self.downstream.reachable
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
    let (subscription, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      guard let subscription = status.subscription else { return (nil, nil) }
      status = .terminal
      return (subscription, self.downstream.end())
    }
    subscription?.cancel()
    withExtendedLifetime(downstream) {}
  }

  var description: String { "TryScan" }
  var customMirror: Mirror {
    let (downstream, status, result) = lock.withLock {
      (self.downstream.reachable, self.status, self.result)
    }
    return Mirror(
      self,
      children: [
        ("downstream", downstream.map { $0 as Any } ?? downstream as Any), ("status", status),
        ("result", result),
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
