import KVOLiteLocking

/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``: hands values to one
/// awaiting `next()` at a time, asking upstream for one value per call.
///
/// - A `next()` that starts before upstream's subscription arrives waits for it.
/// - A value that arrives while nobody awaits is dropped (nothing was asked for it).
/// - A completion that arrives while nobody awaits is kept for the next `next()`: `nil` for a
///   finish, the error for a failure; after it, `next()` returns `nil`.
/// - Cancelling the awaiting task cancels the subscription and ends the sequence.
final class AsyncSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`; values and errors cross to the awaiting
  // task, which is what an AsyncSequence of them is for.
  typealias Outcome = UncheckedSendable<Result<Input?, Failure>>

  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var waiting: CheckedContinuation<Outcome, Never>?
  /// A completion that arrived while nobody awaited.
  private var pending: Subscribers.Completion<Failure>?
  /// Whether the sequence has ended: every later `next()` returns `nil`.
  private var ended = false

  func receive(subscription: any Subscription) {
    let (accepted, anyoneWaiting) = lock.withLock {
      guard !ended, status.accept(subscription) else { return (false, false) }
      return (true, waiting != nil)
    }
    guard accepted else { return subscription.cancel() }
    if anyoneWaiting { subscription.request(.max(1)) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let continuation = lock.withLock { () -> CheckedContinuation<Outcome, Never>? in
      defer { waiting = nil }
      return waiting
    }
    continuation?.resume(returning: UncheckedSendable(.success(input)))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let continuation = lock.withLock { () -> CheckedContinuation<Outcome, Never>? in
      guard !ended else { return nil }
      status = .terminal
      guard let waiting else {
        pending = completion
        return nil
      }
      self.waiting = nil
      ended = true
      return waiting
    }
    continuation?.resume(returning: UncheckedSendable(Self.outcome(of: completion)))
  }

  /// What a `next()` does once it has looked at the state.
  private enum NextStep {
    /// Answer at once.
    case resume(Result<Input?, Failure>)
    /// Wait, asking upstream for one value if it is subscribed.
    case request((any Subscription)?)
  }

  /// The next value, `nil` at the end, or the upstream's failure (once).
  ///
  /// When the task is cancelled, the sequence ends at once, and upstream is cancelled by the
  /// task, here, after the await: not from the cancellation handler, which the runtime runs
  /// with the task locked, a lock that resuming the task takes. Cancelling upstream may wait
  /// for a value on its way (a KVO subscription's cancel does), whose delivery resumes this
  /// task: from the handler, the two would wait for each other for good.
  func next() async -> Result<Input?, Failure> {
    let outcome = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
        let step = lock.withLock { () -> NextStep in
          if ended { return .resume(.success(nil)) }
          if let pending {
            ended = true
            self.pending = nil
            return .resume(Self.outcome(of: pending))
          }
          waiting = continuation
          return .request(status.subscription)
        }
        switch step {
        case .resume(let outcome): continuation.resume(returning: UncheckedSendable(outcome))
        case .request(let subscription): subscription?.request(.max(1))
        }
      }.value
    } onCancel: {
      end()
    }
    if Task.isCancelled { cancel() }
    return outcome
  }

  /// Ends the sequence: the waiting `next()` returns `nil`, and so does every later one.
  /// Upstream is left as it is.
  private func end() {
    let continuation = lock.withLock { () -> CheckedContinuation<Outcome, Never>? in
      ended = true
      defer { waiting = nil }
      return waiting
    }
    continuation?.resume(returning: UncheckedSendable(.success(nil)))
  }

  func cancel() {
    var dropped: Subscribers.Completion<Failure>?  // Released after unlocking.
    defer { _ = dropped }
    let (subscription, continuation) = lock.withLock {
      () -> ((any Subscription)?, CheckedContinuation<Outcome, Never>?) in
      ended = true
      dropped = pending.take()
      defer {
        status = .terminal
        waiting = nil
      }
      return (status.subscription, waiting)
    }
    subscription?.cancel()
    continuation?.resume(returning: UncheckedSendable(.success(nil)))
  }

  private static func outcome(of completion: Subscribers.Completion<Failure>) -> Result<
    Input?, Failure
  > {
    switch completion {
    case .finished: .success(nil)
    case .failure(let error): .failure(error)
    }
  }
}
