/// What a reducing operator does after taking one upstream value into its result.
@usableFromInline
enum ReducingStep<Failure: Error> {
  /// Wait for more values.
  case `continue`
  /// The result is known: cancel upstream, and send it (when downstream has asked) and finish.
  case finish
  /// Fail: cancel upstream and send the error downstream.
  case fail(Failure)
}

/// The subscription of the operators that publish one result when their upstream finishes
/// (`count`, `collect()`, `reduce`, `first`, `last`, `min`, `max`, `contains`, `allSatisfy`
/// and their `try` forms), with Combine's state machine:
///
/// - on subscription it hands itself downstream, then asks upstream for `.unlimited`;
/// - the result (if any) and `.finished` go downstream once both upstream has finished (or the
///   result is known early) and downstream has asked for at least one value, whichever comes
///   second; a failure goes at once;
/// - a request for `.none` traps; events after the end are ignored; it keeps its downstream for
///   its whole life, as Combine's does. Thread-safe.
@usableFromInline
final class ReducingSubscription<Downstream: Subscriber, Input, UpstreamFailure: Error>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  @usableFromInline typealias Failure = UpstreamFailure
  @usableFromInline typealias Output = Downstream.Input

  @usableFromInline let downstream: Downstream
  @usableFromInline let name: String
  @usableFromInline let initial: Output?
  @usableFromInline let mapFailure: (UpstreamFailure) -> Downstream.Failure
  /// Takes a value into the result (called outside the lock; values arrive one at a time).
  @usableFromInline let body: (inout Output?, Input) -> ReducingStep<Downstream.Failure>
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked) @usableFromInline var result: Output?
  @exclusivity(unchecked) @usableFromInline var downstreamRequested = false
  @exclusivity(unchecked) @usableFromInline var upstreamFinished = false
  @exclusivity(unchecked) @usableFromInline var cancelled = false
  /// Whether downstream has been (or is being) sent its completion.
  @exclusivity(unchecked) @usableFromInline var completed = false

  @inlinable init(
    downstream: Downstream, name: String, initial: Output?,
    mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    body: @escaping (inout Output?, Input) -> ReducingStep<Downstream.Failure>
  ) {
    self.downstream = downstream
    self.name = name
    self.initial = initial
    self.mapFailure = mapFailure
    self.body = body
    result = initial
  }

  @inlinable func receive(subscription: any Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else { return subscription.cancel() }
    downstream.receive(subscription: self)
    subscription.request(.unlimited)
  }

  @inlinable func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard let subscription = status.subscription else {
      lock.unlock()
      return .none
    }
    var current = result.take()
    lock.unlock()
    let step = body(&current, input)
    lock.lock()
    result = current
    switch step {
    case .continue:
      lock.unlock()
    case .finish:
      upstreamFinished = true
      status = .terminal
      let send = downstreamRequested && !completed
      if send { completed = true }
      lock.unlock()
      subscription.cancel()
      if send { sendResult(current) }
    case .fail(let error):
      upstreamFinished = true
      completed = true
      status = .terminal
      lock.unlock()
      subscription.cancel()
      downstream.receive(completion: .failure(error))
    }
    return .none
  }

  @inlinable func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard status.isSubscribed else { return lock.unlock() }
    status = .terminal
    upstreamFinished = true
    switch completion {
    case .finished:
      let send = downstreamRequested
      if send { completed = true }
      let current = result
      lock.unlock()
      if send { sendResult(current) }
    case .failure(let error):
      completed = true
      lock.unlock()
      downstream.receive(completion: .failure(mapFailure(error)))
    }
  }

  @inlinable func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.lock()
    guard !downstreamRequested, !cancelled, !completed else { return lock.unlock() }
    downstreamRequested = true
    guard upstreamFinished else { return lock.unlock() }
    completed = true
    let current = result
    lock.unlock()
    sendResult(current)
  }

  @inlinable func cancel() {
    let subscription = lock.withLock { () -> (any Subscription)? in
      guard let subscription = status.subscription else { return nil }
      cancelled = true
      status = .terminal
      return subscription
    }
    subscription?.cancel()
  }

  /// The result, if there is one, then `.finished`.
  @inlinable func sendResult(_ result: Output?) {
    if let result { _ = downstream.receive(result) }
    downstream.receive(completion: .finished)
  }

  @usableFromInline var description: String { name }
  @usableFromInline var customMirror: Mirror {
    let (result, status) = lock.withLock { (self.result, self.status) }
    return Mirror(
      self,
      children: [
        ("downstream", downstream), ("result", result as Any), ("initial", initial as Any),
        ("status", status),
      ])
  }
  @usableFromInline var playgroundDescription: Any { description }
}
