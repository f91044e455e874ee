import Dispatch

extension Publishers {
  /// A publisher that delivers values and the completion on a dispatch queue.
  ///
  /// The subscription and demand requests are not moved: only the downstream callbacks run on
  /// the queue, in order. Demand returned by downstream there is requested from upstream then.
  public struct ReceiveOn<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    public let upstream: Upstream
    public let queue: DispatchQueue

    public init(upstream: Upstream, queue: DispatchQueue) {
      self.upstream = upstream
      self.queue = queue
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(ReceiveOnInner(downstream: subscriber, queue: queue))
    }
  }
}

extension Publisher {
  /// Delivers values and the completion on `queue`.
  ///
  ///     model.publisher(for: \.name).receive(on: .main).sink { label.text = $0 }
  public func receive(on queue: DispatchQueue) -> Publishers.ReceiveOn<Self> {
    Publishers.ReceiveOn(upstream: self, queue: queue)
  }
}

private final class ReceiveOnInner<Downstream: Subscriber>: Subscriber, Subscription, @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`; the downstream is only called on `queue`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private let downstream: Downstream
  private let queue: DispatchQueue

  init(downstream: Downstream, queue: DispatchQueue) {
    self.downstream = downstream
    self.queue = queue
  }

  func receive(subscription: any Subscription) {
    let accepted = lock.withLock {
      guard case .awaitingSubscription = status else { return false }
      status = .subscribed(subscription)
      return true
    }
    guard accepted else { return subscription.cancel() }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    schedule {
      guard let subscription = self.lock.withLock({ self.status.subscription }) else { return }
      let more = self.downstream.receive(input)
      if more > 0 { subscription.request(more) }
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    schedule {
      let wasSubscribed = self.lock.withLock {
        defer { self.status = .terminal }
        return self.status.isSubscribed
      }
      if wasSubscribed { self.downstream.receive(completion: completion) }
    }
  }

  /// Runs `work` on the queue. The values it carries cross threads by design: the Publisher
  /// contract hands them to the subscriber on whatever thread delivers them.
  private func schedule(_ work: @escaping () -> Void) {
    let box = UncheckedSendable(work)
    queue.async { box.value() }
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let subscription = lock.withLock {
      defer { status = .terminal }
      return status.subscription
    }
    subscription?.cancel()
  }
}
