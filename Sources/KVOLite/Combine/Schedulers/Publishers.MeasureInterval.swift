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

/// The subscription of `measureInterval`.
private final class MeasureIntervalInner<Input, Downstream: Subscriber, Context: Scheduler>:
  Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Context.SchedulerTimeType.Stride {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Downstream.Failure

  private let downstream: Downstream
  private let scheduler: Context
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var last: Context.SchedulerTimeType?

  init(downstream: Downstream, scheduler: Context) {
    self.downstream = downstream
    self.scheduler = scheduler
  }

  func receive(subscription: any Subscription) {
    let now = scheduler.now
    guard
      lock.withLock({ () -> Bool in
        guard status.accept(subscription) else { return false }
        last = now
        return true
      })
    else { return subscription.cancel() }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let now = scheduler.now
    guard
      let previous = lock.withLock({ () -> Context.SchedulerTimeType? in
        guard status.isSubscribed, let previous = last else { return nil }
        last = now
        return previous
      })
    else { return .none }
    return downstream.receive(previous.distance(to: now))
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard
      lock.withLock({ () -> Bool in
        defer { status = .terminal }
        return status.isSubscribed
      })
    else { return }
    downstream.receive(completion: completion)
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
