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

/// The subscription of `debounce`, with Combine's state machine:
///
/// - upstream is asked for `.unlimited` after downstream has its subscription; downstream's
///   requests (`.none` too) only add to the demand kept here;
/// - each value starts a new generation, read `now`, and arms a repeating timer
///   (`schedule(after:interval:tolerance:options:)`, the interval being the due time) whose
///   token is kept; the timers of earlier generations are cancelled;
/// - when the latest generation's timer fires, its token is cancelled and the value goes
///   downstream if it has demand (otherwise it is dropped); an earlier generation's timer that
///   fires anyway cancels its token and does nothing;
/// - the completion cancels the timers and is scheduled (`schedule(options: nil)`), then
///   delivered: a cancel after it does nothing; a cancel before it cancels the timers and
///   upstream. A cancel before the subscription does nothing.
///
/// A scheduled action keeps this object alive until it runs or its timer is cancelled. What
/// the scheduler runs (a timer's firing, the completion's delivery) goes through a
/// ``SerialDrain``, one at a time, in the order it fired or was scheduled, whatever order a
/// concurrent scheduler runs it in; a cancel ends the drain. The handover is serialized with
/// the deliveries by a recursive lock; the state is behind `lock` and nothing is
/// called with it held. Downstream is let go of once it has its completion, or on cancel.
private final class DebounceInner<Downstream: Subscriber, Context: Scheduler>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`; downstream is called under `delivery`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// A generation's timer: being armed, or armed with its token.
  private enum Timer {
    case arming
    case armed(any Cancellable)

    func cancel() {
      if case .armed(let token) = self { token.cancel() }
    }
  }

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
  private let dueTime: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private let drain = SerialDrain()
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var demand = Subscribers.Demand.none
  private var generation = 0
  private var timers: [Int: Timer] = [:]
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

  /// Empties the timers, with the lock held, for cancelling after unlocking.
  private func takeTimers() -> [Int: Timer] {
    defer { timers = [:] }
    return timers
  }

  func receive(subscription: any Subscription) {
    guard let downstream = lock.withLock({ status.accept(subscription) ? downstream : nil }) else {
      return subscription.cancel()
    }
    delivery.withLock { downstream.receive(subscription: self) }
    subscription.request(.unlimited)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard status.isSubscribed else {
      lock.unlock()
      return .none
    }
    generation += 1
    let current = generation
    let replaced = currentValue
    currentValue = input
    let previous = takeTimers()
    timers[current] = .arming
    lock.unlock()
    withExtendedLifetime(replaced) {}
    let due = scheduler.now.advanced(by: dueTime)
    let token = scheduler.schedule(
      after: due, interval: dueTime, tolerance: scheduler.minimumTolerance, options: options
    ) { self.drain.run { self.fire(current) } }
    let armed = lock.withLock { () -> Bool in
      guard case .arming = timers[current] else { return false }
      timers[current] = .armed(token)
      return true
    }
    if !armed { token.cancel() }
    for timer in previous.values { timer.cancel() }
    return .none
  }

  /// The timer of generation `fired` fired.
  private func fire(_ fired: Int) {
    lock.lock()
    guard status.isSubscribed else { return lock.unlock() }
    guard fired == generation, let value = currentValue else {
      let timer = timers[fired]
      lock.unlock()
      timer?.cancel()
      return
    }
    guard let timer = timers.removeValue(forKey: fired), let downstream else {
      return lock.unlock()
    }
    let hasDemand = demand > 0
    if hasDemand { demand -= 1 }
    lock.unlock()
    timer.cancel()
    guard hasDemand else { return }
    let more = delivery.withLock { downstream.receive(value) }
    if more > 0 { lock.withLock { demand += more } }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard status.isSubscribed else { return lock.unlock() }
    status = .terminal
    let timers = takeTimers()
    lock.unlock()
    for timer in timers.values { timer.cancel() }
    let place = drain.reserve()
    scheduler.schedule(options: nil) { self.drain.run(place) { self.deliver(completion) } }
  }

  private func deliver(_ completion: Subscribers.Completion<Failure>) {
    let (downstream, value) = lock.withLock { (self.downstream.take(), currentValue.take()) }
    withExtendedLifetime(value) {}
    guard let downstream else { return }
    delivery.withLock { downstream.receive(completion: completion) }
  }

  func request(_ newDemand: Subscribers.Demand) {
    lock.withLock { if status.isSubscribed { demand += newDemand } }
  }

  func cancel() {
    lock.lock()
    guard let subscription = status.subscription else { return lock.unlock() }
    status = .terminal
    let (timers, downstream, value) = (takeTimers(), self.downstream.take(), currentValue.take())
    lock.unlock()
    drain.end()
    for timer in timers.values { timer.cancel() }
    subscription.cancel()
    withExtendedLifetime((downstream, value)) {}
  }

  var description: String { "Debounce" }
  var customMirror: Mirror {
    let (downstream, demand, value) = lock.withLock {
      (self.downstream, self.demand, self.currentValue)
    }
    return Mirror(
      self,
      children: [
        ("downstream", downstream as Any), ("downstreamDemand", demand),
        ("currentValue", value as Any),
      ])
  }
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
