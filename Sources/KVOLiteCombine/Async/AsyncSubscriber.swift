import KVOLiteLocking

/// The subscriber behind ``AsyncPublisher`` and ``AsyncThrowingPublisher``, as Combine's: every
/// call to `next()` waits in line and asks upstream for one value.
///
/// - A `next()` that starts before upstream's subscription arrives waits too; the subscription
///   is then asked for one value per waiting call.
/// - Each value resumes the call that has waited longest. A value that nobody asked for traps,
///   as in Combine (a publisher must not send more than was requested).
/// - A completion resumes every waiting call: the first with the end (`nil`) or the failure,
///   the others with `nil`. A failure that arrives while nobody waits is thrown by the next
///   call, once; after the completion, `next()` returns `nil`.
/// - Cancelling a waiting task resumes every waiting call with `nil`, and the sequence ends
///   (a value still on its way is dropped); that task then cancels the subscription.
///
/// Thread-safe: one state behind one lock; continuations are resumed and the subscription is
/// called after unlocking.
final class AsyncSubscriber<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`; values and errors cross to the awaiting
  // task, which is what an AsyncSequence of them is for.
  typealias Outcome = UncheckedSendable<Result<Input?, Failure>>
  private typealias Waiter = CheckedContinuation<Outcome, Never>

  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  /// The calls waiting for a value, longest-waiting first.
  private var waiting: [Waiter] = []
  /// Values asked for before the subscription arrived.
  private var pendingDemand = Subscribers.Demand.none
  /// A failure that arrived while nobody waited, for the next call to throw.
  private var failure: Failure?
  /// Set when an awaiting task is cancelled: the sequence has ended, though upstream is
  /// cancelled only once that task is past its await (see ``next()``).
  private var isEnded = false

  func receive(subscription: any Subscription) {
    lock.lock()
    guard status.accept(subscription) else {
      lock.unlock()
      return subscription.cancel()
    }
    // Once ended, nothing is pending (``end()`` clears it): the cancelled task cancels the
    // subscription.
    let demand = pendingDemand
    pendingDemand = .none
    lock.unlock()
    if demand > 0 { subscription.request(demand) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard status.isSubscribed, !isEnded else {
      let waiting = takeWaiting()
      lock.unlock()
      Self.resume(waiting, with: .success(nil))
      return .none
    }
    guard !waiting.isEmpty else {
      lock.unlock()
      fatalError("values received a value that was not requested")
    }
    let first = waiting.removeFirst()
    lock.unlock()
    first.resume(returning: UncheckedSendable(.success(input)))
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    let wasTerminal = isTerminal
    status = .terminal
    let waiting = takeWaiting()
    if !wasTerminal, waiting.isEmpty, case .failure(let error) = completion { failure = error }
    lock.unlock()
    guard let first = waiting.first else { return }
    first.resume(returning: UncheckedSendable(wasTerminal ? .success(nil) : outcome(completion)))
    Self.resume(waiting.dropFirst(), with: .success(nil))
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
      await withCheckedContinuation { (continuation: Waiter) in
        lock.lock()
        if isEnded {
          lock.unlock()
          return continuation.resume(returning: UncheckedSendable(.success(nil)))
        }
        switch status {
        case .awaitingSubscription:
          waiting.append(continuation)
          pendingDemand += 1
          lock.unlock()
        case .subscribed(let subscription):
          waiting.append(continuation)
          lock.unlock()
          subscription.request(.max(1))
        case .terminal:
          let failure = self.failure.take()
          lock.unlock()
          continuation.resume(
            returning: UncheckedSendable(failure.map { .failure($0) } ?? .success(nil)))
        }
      }.value
    } onCancel: {
      end()
    }
    if Task.isCancelled { cancel() }
    return outcome
  }

  /// Ends the sequence: every waiting call returns `nil`, and so does every later one. Upstream
  /// is left subscribed, for the cancelled task to cancel.
  private func end() {
    lock.lock()
    isEnded = true
    pendingDemand = .none
    let waiting = takeWaiting()
    lock.unlock()
    Self.resume(waiting, with: .success(nil))
  }

  func cancel() {
    lock.lock()
    let subscription = status.subscription
    status = .terminal
    let waiting = takeWaiting()
    lock.unlock()
    subscription?.cancel()
    Self.resume(waiting, with: .success(nil))
  }

  private var isTerminal: Bool {
    if case .terminal = status { return true }
    return false
  }

  /// Empties the line of waiting calls, with the lock held.
  private func takeWaiting() -> [Waiter] {
    defer { waiting = [] }
    return waiting
  }

  private func outcome(_ completion: Subscribers.Completion<Failure>) -> Result<Input?, Failure> {
    switch completion {
    case .finished: .success(nil)
    case .failure(let error): .failure(error)
    }
  }

  private static func resume<Waiters: Sequence<Waiter>>(
    _ waiters: Waiters, with outcome: Result<Input?, Failure>
  ) {
    for waiter in waiters { waiter.resume(returning: UncheckedSendable(outcome)) }
  }
}
