import KVOLiteLocking

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
/// - a request for `.none` traps; events after the end are ignored;
/// - once it has completed downstream or been cancelled, it lets go of its downstream and its
///   closure (after unlocking), so a subscriber that keeps this subscription is not kept alive
///   by it. Thread-safe.
@usableFromInline
final class ReducingSubscription<Downstream: Subscriber, Input, UpstreamFailure: Error>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  @usableFromInline typealias Failure = UpstreamFailure
  @usableFromInline typealias Output = Downstream.Input

  /// The subscriber, until it has its completion or cancels.
  @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
  @usableFromInline let name: String
  @usableFromInline let initial: Output?
  @usableFromInline let mapFailure: (UpstreamFailure) -> Downstream.Failure
  /// Takes a value into the result (called outside the lock; values arrive one at a time);
  /// `nil` once the subscription has ended.
  @exclusivity(unchecked) @usableFromInline var body:
    ((inout Output?, Input) -> ReducingStep<Downstream.Failure>)?
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var status = SubscriptionStatus.awaitingSubscription
  @exclusivity(unchecked) @usableFromInline var result: Output?
  /// The children of its mirror, made from the result, where Combine's differ from the
  /// reducers' usual `downstream`, `result`, `initial` and `status` (`collect()`'s `count`).
  @usableFromInline let mirrorChildren: ((Output?) -> [Mirror.Child])?
  @exclusivity(unchecked) @usableFromInline var downstreamRequested = false
  @exclusivity(unchecked) @usableFromInline var upstreamFinished = false
  @exclusivity(unchecked) @usableFromInline var cancelled = false
  /// Whether downstream has been (or is being) sent its completion.
  @exclusivity(unchecked) @usableFromInline var completed = false

  @inlinable init(
    downstream: Downstream, name: String, initial: Output?,
    mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    mirrorChildren: ((Output?) -> [Mirror.Child])? = nil,
    body: @escaping (inout Output?, Input) -> ReducingStep<Downstream.Failure>
  ) {
    self.mirrorChildren = mirrorChildren
    self.downstream = downstream
    self.name = name
    self.initial = initial
    self.mapFailure = mapFailure
    self.body = body
    result = initial
  }

  @inlinable func receive(subscription: any Subscription) {
    lock.lock()
    guard status.accept(subscription), let downstream else {
      lock.unlock()
      return subscription.cancel()
    }
    lock.unlock()
    downstream.receive(subscription: self)
    subscription.request(.unlimited)
  }

  @inlinable func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard let subscription = status.subscription, let body else {
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
      let ended = downstreamRequested && !completed ? end() : nil
      lock.unlock()
      subscription.cancel()
      if let ended { deliver(current, to: ended.downstream) }
    case .fail(let error):
      upstreamFinished = true
      status = .terminal
      let ended = end()
      lock.unlock()
      subscription.cancel()
      ended.downstream?.receive(completion: .failure(error))
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
      let ended = downstreamRequested ? end() : nil
      let current = result
      lock.unlock()
      if let ended { deliver(current, to: ended.downstream) }
    case .failure(let error):
      let ended = end()
      lock.unlock()
      ended.downstream?.receive(completion: .failure(mapFailure(error)))
    }
  }

  @inlinable func request(_ demand: Subscribers.Demand) {
    require(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.lock()
    guard !downstreamRequested, !cancelled, !completed else { return lock.unlock() }
    downstreamRequested = true
    guard upstreamFinished else { return lock.unlock() }
    let ended = end()
    let current = result
    lock.unlock()
    deliver(current, to: ended.downstream)
  }

  @inlinable func cancel() {
    let (subscription, ended) = lock.withLock {
      () -> ((any Subscription)?, Ended?) in
      guard let subscription = status.subscription else { return (nil, nil) }
      cancelled = true
      status = .terminal
      return (subscription, end())
    }
    subscription?.cancel()
    withExtendedLifetime(ended) {}
  }

  /// What the subscription lets go of when it ends.
  @usableFromInline typealias Ended = (
    downstream: Downstream?, body: ((inout Output?, Input) -> ReducingStep<Downstream.Failure>)?
  )

  /// Marks downstream completed (or cancelled) and lets go of it and the closure, with the lock
  /// held: the caller sends what it must to the downstream returned, then releases both.
  @inlinable func end() -> Ended {
    completed = true
    return (downstream.take(), body.take())
  }

  /// The result, if there is one, then `.finished`.
  @inlinable func deliver(_ result: Output?, to downstream: Downstream?) {
    guard let downstream else { return }
    if let result { _ = downstream.receive(result) }
    downstream.receive(completion: .finished)
  }

  @usableFromInline var description: String { name }
  @usableFromInline var customMirror: Mirror {
    let (downstream, result, status) = lock.withLock { (self.downstream, self.result, self.status) }
    if let mirrorChildren { return Mirror(self, children: mirrorChildren(result)) }
    return Mirror(
      self,
      children: [
        ("downstream", downstream as Any), ("result", result as Any), ("initial", initial as Any),
        ("status", status),
      ])
  }
  @usableFromInline var playgroundDescription: Any { description }
}
