extension Publishers {
  /// A publisher that delivers its upstream's values and completion on a scheduler.
  ///
  /// As Combine's: the subscription is handed downstream at once (not on the scheduler);
  /// each value and the completion is scheduled in turn; the demand downstream answers with on
  /// the scheduler is then requested from upstream. A cancel stops deliveries that are still
  /// waiting. Its subscription is "ReceiveOn".
  public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose events are moved.
    public let upstream: Upstream
    /// Where they are delivered.
    public let scheduler: Context
    /// How they are scheduled.
    public let options: Context.SchedulerOptions?

    /// `upstream`'s events, delivered on `scheduler`.
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(ReceiveOnInner(downstream: subscriber, scheduler: scheduler, options: options))
    }
  }
}

/// The subscription of `receive(on:)`.
private final class ReceiveOnInner<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`; downstream is called one event at a time.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let downstream: Downstream
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var completing = false

  init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
    self.downstream = downstream
    self.scheduler = scheduler
    self.options = options
  }

  func receive(subscription: any Subscription) {
    guard lock.withLock({ status.accept(subscription) }) else { return subscription.cancel() }
    delivery.withLock { downstream.receive(subscription: self) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ status.isSubscribed && !completing }) else { return .none }
    scheduler.schedule(options: options) { [self] in
      guard lock.withLock({ status.isSubscribed }) else { return }
      let more = delivery.withLock { downstream.receive(input) }
      guard more > 0 else { return }
      lock.withLock { status.subscription }?.request(more)
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard lock.withLock({ () -> Bool in
      guard status.isSubscribed, !completing else { return false }
      completing = true
      return true
    }) else { return }
    scheduler.schedule(options: options) { [self] in
      guard lock.withLock({ () -> Bool in
        guard status.isSubscribed else { return false }
        status = .terminal
        return true
      }) else { return }
      delivery.withLock { downstream.receive(completion: completion) }
    }
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let subscription = lock.withLock { () -> (any Subscription)? in
      defer { status = .terminal }
      return status.subscription
    }
    subscription?.cancel()
  }

  var description: String { "ReceiveOn" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Delivers values and the completion on `scheduler`.
  ///
  ///     model.publisher(for: \.name).receive(on: DispatchQueue.main).sink { label.text = $0 }
  public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.ReceiveOn<Self, S> {
    Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
  }
}
