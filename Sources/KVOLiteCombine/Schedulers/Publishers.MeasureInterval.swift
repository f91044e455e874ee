import KVOLiteLocking

extension Publishers {
  /// A publisher of the time between its upstream's values (the first measured from
  /// subscription), by a scheduler's clock. Its subscription is "MeasureInterval".
  public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Context.SchedulerTimeType.Stride
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher measured.
    public let upstream: Upstream
    /// The clock.
    public let scheduler: Context

    /// The intervals between `upstream`'s values.
    public init(upstream: Upstream, scheduler: Context) {
      self.upstream = upstream
      self.scheduler = scheduler
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        MeasureIntervalInner<Upstream.Output, S, Context>(
          downstream: subscriber, scheduler: scheduler))
    }
  }
}

/// The subscription of `measureInterval`, with Combine's state machine: the clock is read at
/// the subscription and at each value while subscribed; the demand downstream answers with is
/// requested from upstream (each value answers `.none`); requests (`.none` too) go upstream;
/// a cancel before the subscription does nothing. Thread-safe: one state behind one lock; the
/// clock is read and downstream called without it.
private final class MeasureIntervalInner<Input, Downstream: Subscriber, Context: Scheduler>:
  Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Context.SchedulerTimeType.Stride {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Downstream.Failure

  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  private let scheduler: Context
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var last: Context.SchedulerTimeType?

  init(downstream: Downstream, scheduler: Context) {
    self.downstream = downstream
    self.scheduler = scheduler
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard status.accept(subscription), let downstream else {
      lock.unlock()
      return subscription.cancel()
    }
    lock.unlock()
    let now = scheduler.now
    lock.withLock { last = now }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ status.isSubscribed }) else { return .none }
    let now = scheduler.now
    lock.lock()
    guard let subscription = status.subscription, let previous = last, let downstream else {
      lock.unlock()
      return .none
    }
    last = now
    lock.unlock()
    let more = downstream.receive(previous.distance(to: now))
    if more > 0 { subscription.request(more) }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let downstream = lock.withLock { () -> Downstream? in
      guard status.isSubscribed else { return nil }
      status = .terminal
      last = nil
      return self.downstream.take()
    }
    downstream?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let (subscription, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      guard let subscription = status.subscription else { return (nil, nil) }
      status = .terminal
      last = nil
      return (subscription, self.downstream.take())
    }
    subscription?.cancel()
    withExtendedLifetime(downstream) {}
  }

  var description: String { "MeasureInterval" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Publishes the time between values (the first from subscription), by `scheduler`'s clock.
  public func measureInterval<S: Scheduler>(using scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.MeasureInterval<Self, S>
  {
    Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
  }
}
