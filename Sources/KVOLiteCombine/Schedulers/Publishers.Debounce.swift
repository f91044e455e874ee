import KVOLiteLocking

extension Publishers {
  /// A publisher that publishes a value only after its upstream has been quiet for a time:
  /// each value restarts the wait, and only the last one goes out (if downstream has demand
  /// then).
  ///
  /// As Combine's: upstream is asked for `.unlimited`; the completion is delivered on the
  /// scheduler at once, dropping a value still waiting. Its subscription is "Debounce".
  public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher debounced.
    public let upstream: Upstream
    /// How long upstream must be quiet.
    public let dueTime: Context.SchedulerTimeType.Stride
    /// Where values are delivered.
    public let scheduler: Context
    /// How they are scheduled.
    public let options: Context.SchedulerOptions?

    /// `upstream`'s values that are followed by `dueTime` of quiet.
    public init(
      upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?
    ) {
      self.upstream = upstream
      self.dueTime = dueTime
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        DebounceInner(
          downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options))
    }
  }
}

/// The subscription of `debounce`. Each value gets a generation; a scheduled emission whose
/// generation is no longer the latest does nothing. Emissions check the state with the
/// delivery lock held, so no value follows the completion; downstream is let go of once it
/// has its completion, or on cancel.
private final class DebounceInner<Downstream: Subscriber, Context: Scheduler>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
  private let dueTime: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var demand = Subscribers.Demand.none
  private var generation = 0
  private var currentValue: Input?

  init(
    downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?
  ) {
    self.downstream = downstream
    self.dueTime = dueTime
    self.scheduler = scheduler
    self.options = options
  }

  func receive(subscription: any Subscription) {
    guard let downstream = lock.withLock({ status.accept(subscription) ? downstream : nil }) else {
      return subscription.cancel()
    }
    delivery.withLock { downstream.receive(subscription: self) }
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let due = scheduler.now.advanced(by: dueTime)
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return .none
    }
    generation += 1
    let replaced = currentValue
    currentValue = input
    let current = generation
    lock.unlock()
    _ = replaced  // Released after unlocking.
    scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: options) {
      [self] in
      emit(current)
    }
    return .none
  }

  private func emit(_ due: Int) {
    delivery.withLock {
      let ready = lock.withLock { () -> (Downstream, Input)? in
        guard status.isSubscribed, due == generation, demand > 0, let downstream,
          let value = currentValue.take()
        else { return nil }
        demand -= 1
        return (downstream, value)
      }
      guard let (downstream, value) = ready else { return }
      let more = downstream.receive(value)
      if more > 0 { lock.withLock { demand += more } }
    }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let ended = lock.withLock { () -> (Downstream?, Input?)? in
      guard status.isSubscribed else { return nil }
      status = .terminal
      return (downstream.take(), currentValue.take())
    }
    guard let downstream = ended?.0 else { return }
    scheduler.schedule(options: options) { [self] in
      delivery.withLock { downstream.receive(completion: completion) }
    }
  }

  func request(_ newDemand: Subscribers.Demand) {
    precondition(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    lock.withLock { if status.isSubscribed { demand += newDemand } }
  }

  func cancel() {
    let (subscription, ended) = lock.withLock {
      () -> ((any Subscription)?, (Downstream?, Input?)) in
      defer { status = .terminal }
      return (status.subscription, (downstream.take(), currentValue.take()))
    }
    subscription?.cancel()
    withExtendedLifetime(ended) {}
  }

  var description: String { "Debounce" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Publishes a value only once `dueTime` has passed without another.
  ///
  ///     $query.debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
  public func debounce<S: Scheduler>(
    for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
  )
    -> Publishers.Debounce<Self, S>
  {
    Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
  }
}
