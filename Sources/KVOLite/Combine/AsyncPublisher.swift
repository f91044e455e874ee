/// The values of a publisher as an `AsyncSequence`, for `for await` code.
///
///     for await name in person.values(for: \.firstName) { print(name) }
///
/// The iterator requests one value at a time, so nothing is buffered: a value published while
/// nobody awaits is dropped by publishers that drop values without demand (KVO publishers), and
/// kept by those that hold a current value. Cancelling the awaiting task ends the sequence.
public struct AsyncPublisher<Upstream: Publisher>: AsyncSequence where Upstream.Failure == Never {
  /// The kind of values the sequence yields: the upstream's output.
  public typealias Element = Upstream.Output

  private let upstream: Upstream

  /// A sequence of `upstream`'s values; nothing is subscribed until iteration starts.
  public init(_ upstream: Upstream) {
    self.upstream = upstream
  }

  /// An iterator with its own subscription to the upstream.
  public func makeAsyncIterator() -> Iterator {
    let subscriber = AsyncSubscriber<Element>()
    upstream.subscribe(subscriber)
    return Iterator(subscriber: subscriber)
  }

  /// Awaits values one by one.
  public struct Iterator: AsyncIteratorProtocol {
    fileprivate let subscriber: AsyncSubscriber<Element>

    /// The next value, or `nil` once the upstream has finished or the task is cancelled.
    public mutating func next() async -> Element? {
      await subscriber.next()
    }
  }
}

extension Publisher where Failure == Never {
  /// This publisher's values as an `AsyncSequence`.
  public var values: AsyncPublisher<Self> { AsyncPublisher(self) }
}

extension KeyValueObservable {
  /// The values of a key path as an `AsyncSequence`: `publisher(for:options:).values`.
  public func values<Value>(
    for keyPath: KeyPath<Self, Value>, options: ObservingOptions = [.initial, .new]
  ) -> AsyncPublisher<KeyValueObservingPublisher<Self, Value>> {
    publisher(for: keyPath, options: options).values
  }
}

/// Hands values to one awaiting `next()` at a time.
private final class AsyncSubscriber<Input>: Subscriber, Cancellable, @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`; values cross to the awaiting task, which is
  // what an AsyncSequence of them is for.
  typealias Failure = Never

  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var waiting: CheckedContinuation<UncheckedSendable<Input?>, Never>?
  private var finished = false

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock {
      guard case .awaitingSubscription = status, !finished else { return false }
      status = .subscribed(subscription)
      return true
    }
    if !accepted { subscription.cancel() }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let continuation = lock.withLock {
      defer { waiting = nil }
      return waiting
    }
    continuation?.resume(returning: UncheckedSendable(input))
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    let continuation = lock.withLock {
      finished = true
      status = .terminal
      defer { waiting = nil }
      return waiting
    }
    continuation?.resume(returning: UncheckedSendable(nil))
  }

  func next() async -> Input? {
    await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<UncheckedSendable<Input?>, Never>) in
        let subscription = lock.withLock { () -> (any Subscription)? in
          guard !finished, let subscription = status.subscription else { return nil }
          waiting = continuation
          return subscription
        }
        guard let subscription else {
          return continuation.resume(returning: UncheckedSendable(nil))
        }
        subscription.request(.max(1))
      }.value
    } onCancel: {
      cancel()
    }
  }

  func cancel() {
    let (subscription, continuation) = lock.withLock {
      finished = true
      defer {
        status = .terminal
        waiting = nil
      }
      return (status.subscription, waiting)
    }
    subscription?.cancel()
    continuation?.resume(returning: UncheckedSendable(nil))
  }
}
