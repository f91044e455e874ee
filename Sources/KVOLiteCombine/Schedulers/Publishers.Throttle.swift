import KVOLiteLocking

extension Publishers {
  /// A publisher that publishes at most one value per interval: the first value of a quiet
  /// period goes out at once, later ones wait for the interval since the last emission, and of
  /// the values that arrive meanwhile it keeps the latest (`latest: true`) or the first.
  ///
  /// As Combine's: upstream is asked for `.unlimited`; a value that arrives while downstream
  /// has no demand is dropped; the completion goes out after a waiting value. Its subscription
  /// is "Throttle".
  public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher throttled.
    public let upstream: Upstream
    /// The shortest time between two values.
    public let interval: Context.SchedulerTimeType.Stride
    /// Where values are delivered.
    public let scheduler: Context
    /// Whether the latest value of an interval wins (otherwise the first).
    public let latest: Bool

    /// `upstream`, throttled to one value per `interval`.
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
      latest: Bool
    ) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.latest = latest
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        ThrottleInner(
          downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest))
    }
  }
}

/// The subscription of `throttle`. Emissions check the state with the delivery lock held, so
/// no value follows the completion; downstream is let go of once it has its completion, or on
/// cancel.
private final class ThrottleInner<Downstream: Subscriber, Context: Scheduler>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
  private let interval: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let latest: Bool
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var completing = false
  private var demand = Subscribers.Demand.none
  private var lastEmission: Context.SchedulerTimeType?
  private var pendingValue: Input?
  private var pendingCompletion: Subscribers.Completion<Failure>?

  init(
    downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
    latest: Bool
  ) {
    self.downstream = downstream
    self.interval = interval
    self.scheduler = scheduler
    self.latest = latest
  }

  func receive(subscription: any Subscription) {
    guard let downstream = lock.withLock({ status.accept(subscription) ? downstream : nil }) else {
      return subscription.cancel()
    }
    subscription.request(.unlimited)
    delivery.withLock { downstream.receive(subscription: self) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let now = scheduler.now
    var replaced: Input?  // Released after unlocking.
    let emission = lock.withLock { () -> Context.SchedulerTimeType?? in
      guard status.isSubscribed, !completing, demand > 0 else { return nil }
      let waiting = pendingValue != nil || pendingCompletion != nil
      if waiting {
        if latest { replaced = pendingValue.take() }
        if latest { pendingValue = input }
        return nil
      }
      demand -= 1
      pendingValue = input
      return .some(lastEmission.map { Swift.max(now, $0.advanced(by: interval)) })
    }
    _ = replaced
    switch emission {
    case .some(.some(let time)) where time > now:
      scheduler.schedule(after: time) { [self] in emit() }
    case .some: scheduler.schedule { [self] in emit() }
    case nil: break
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let scheduleNow = lock.withLock { () -> Bool in
      guard status.isSubscribed, !completing else { return false }
      completing = true
      pendingCompletion = completion
      return pendingValue == nil
    }
    if scheduleNow { scheduler.schedule { [self] in emit() } }
  }

  /// Sends the waiting value and/or completion.
  private func emit() {
    let now = scheduler.now
    var more = Subscribers.Demand.none
    delivery.withLock {
      let (downstream, value, completion) = lock.withLock {
        () -> (Downstream?, Input?, Subscribers.Completion<Failure>?) in
        guard status.isSubscribed else { return (nil, nil, nil) }
        if pendingValue != nil { lastEmission = now }
        let completion = pendingCompletion.take()
        if completion != nil { status = .terminal }
        return (
          completion == nil ? self.downstream : self.downstream.take(), pendingValue.take(),
          completion
        )
      }
      guard let downstream else { return }
      if let value { more = downstream.receive(value) }
      if let completion { downstream.receive(completion: completion) }
    }
    if more > 0 { lock.withLock { demand += more } }
  }

  func request(_ newDemand: Subscribers.Demand) {
    lock.withLock { if status.isSubscribed { demand += newDemand } }
  }

  func cancel() {
    let (subscription, ended) = lock.withLock {
      () -> ((any Subscription)?, (Downstream?, Input?)) in
      defer { status = .terminal }
      return (status.subscription, (downstream.take(), pendingValue.take()))
    }
    subscription?.cancel()
    withExtendedLifetime(ended) {}
  }

  var description: String { "Throttle" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Publishes at most one value per `interval`: the latest of each interval (`latest: true`)
  /// or the first.
  ///
  ///     $query.throttle(for: .milliseconds(300), scheduler: DispatchQueue.main, latest: true)
  public func throttle<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
  )
    -> Publishers.Throttle<Self, S>
  {
    Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
  }
}
