import KVOLiteLocking

extension Publishers {
  /// A publisher of its upstream's values in groups collected over time. Upstream is asked for
  /// `.unlimited`; a group goes out when its time is up (if it is not empty) or when it is full;
  /// the last group goes out before the completion (a failure drops it). Groups that find no
  /// demand are dropped. Its subscription is "CollectByTime".
  public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = [Upstream.Output]
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are grouped.
    public let upstream: Upstream
    /// When groups are published.
    public let strategy: TimeGroupingStrategy<Context>
    /// How the timer is scheduled.
    public let options: Context.SchedulerOptions?

    /// `upstream`'s values grouped by `strategy`.
    public init(
      upstream: Upstream, strategy: TimeGroupingStrategy<Context>,
      options: Context.SchedulerOptions?
    ) {
      self.upstream = upstream
      self.strategy = strategy
      self.options = options
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        CollectByTimeInner<Upstream.Output, S, Context>(
          downstream: subscriber, strategy: strategy, options: options))
    }
  }
}

/// The subscription of `collect(.byTime…)`. The clock is a repeating action on the scheduler;
/// each start of it gets a generation, and ticks of an older one do nothing. A group goes out
/// when a tick takes its turn (what was collected, `count` at most), or when upstream fills one
/// (`count`); the completion sends the rest. Those turns go through a ``SerialDrain``, one at a
/// time, in the order they came, whichever thread they came on (a tick on the scheduler, a
/// full group or the completion on upstream's), and each takes its group from the front of
/// what was collected when its turn comes: groups never overtake each other or the
/// completion. Downstream is let go of once it has its completion, or on cancel.
private final class CollectByTimeInner<Input, Downstream: Subscriber, Context: Scheduler>:
  Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == [Input] {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Downstream.Failure

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
  private let scheduler: Context
  private let interval: Context.SchedulerTimeType.Stride
  private let count: Int?
  private let options: Context.SchedulerOptions?
  private let drain = SerialDrain()
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var buffer: [Input] = []
  private var demand = Subscribers.Demand.none
  private var clock: (any Cancellable)?
  private var generation = 0

  init(
    downstream: Downstream, strategy: Publishers.TimeGroupingStrategy<Context>,
    options: Context.SchedulerOptions?
  ) {
    self.downstream = downstream
    switch strategy {
    case .byTime(let scheduler, let interval):
      (self.scheduler, self.interval, count) = (scheduler, interval, nil)
    case .byTimeOrCount(let scheduler, let interval, let count):
      (self.scheduler, self.interval, self.count) = (scheduler, interval, Swift.max(1, count))
    }
    self.options = options
  }

  /// Starts the clock again.
  private func startClock() {
    let current = lock.withLock { () -> Int in
      generation += 1
      return generation
    }
    let clock = scheduler.schedule(
      after: scheduler.now.advanced(by: interval), interval: interval,
      tolerance: scheduler.minimumTolerance,
      options: options
    ) { [weak self] in self?.tick(current) }
    let stale = lock.withLock { () -> (any Cancellable)? in
      guard status.isSubscribed, current == generation else { return clock }
      defer { self.clock = clock }
      return self.clock
    }
    stale?.cancel()
  }

  /// The clock ticked (on the scheduler): the tick takes its turn in the drain.
  private func tick(_ current: Int) {
    drain.run { [weak self] in self?.sendCollected(current) }
  }

  /// A tick's turn: what was collected goes out, if this tick's clock is the current one.
  private func sendCollected(_ current: Int) {
    guard
      let group = lock.withLock({ () -> [Input]? in
        guard current == generation, status.isSubscribed, !buffer.isEmpty else { return nil }
        return takeGroup()
      })
    else { return }
    send(group)
  }

  /// A full group's turn: the first `count` values go out (unless a tick sent them already),
  /// and the clock starts again.
  private func sendFull() {
    guard
      let (group, subscribed) = lock.withLock({ () -> ([Input], Bool)? in
        guard downstream != nil, let count, buffer.count >= count else { return nil }
        return (takeGroup(), status.isSubscribed)
      })
    else { return }
    send(group)
    if subscribed { startClock() }
  }

  /// With the lock held: the group at the front of what was collected (`count` values at
  /// most), taken out.
  private func takeGroup() -> [Input] {
    let size = Swift.min(buffer.count, count ?? buffer.count)
    defer { buffer.removeFirst(size) }
    return Array(buffer.prefix(size))
  }

  /// Sends a group to `downstream` (the live one if `nil`) if it has demand for it.
  private func send(_ group: [Input], to ending: Downstream? = nil) {
    delivery.withLock {
      let target = lock.withLock { () -> Downstream? in
        guard demand > 0, let target = ending ?? downstream else { return nil }
        demand -= 1
        return target
      }
      guard let target else { return }
      let more = target.receive(group)
      if more > 0 { lock.withLock { demand += more } }
    }
  }

  func receive(subscription: any Subscription) {
    guard let downstream = lock.withLock({ status.accept(subscription) ? downstream : nil }) else {
      return subscription.cancel()
    }
    delivery.withLock { downstream.receive(subscription: self) }
    subscription.request(.unlimited)
    startClock()
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let full = lock.withLock { () -> Bool in
      guard status.isSubscribed else { return false }
      buffer.append(input)
      return count.map { buffer.count >= $0 } ?? false
    }
    if full { drain.run { self.sendFull() } }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard
      let clock = lock.withLock({ () -> (any Cancellable)?? in
        guard status.isSubscribed else { return nil }
        status = .terminal
        generation += 1
        return .some(self.clock.take())
      })
    else { return }
    clock?.cancel()
    drain.run { self.finish(completion) }
  }

  /// The completion's turn: the rest of what was collected goes out first (unless upstream
  /// failed), then the completion.
  private func finish(_ completion: Subscribers.Completion<Failure>) {
    let (rest, downstream) = lock.withLock { () -> ([Input], Downstream?) in
      defer { buffer = [] }
      return (buffer, self.downstream.take())
    }
    guard let downstream else { return }
    delivery.withLock {
      if case .finished = completion, !rest.isEmpty { send(rest, to: downstream) }
      downstream.receive(completion: completion)
    }
  }

  func request(_ newDemand: Subscribers.Demand) {
    require(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    lock.withLock { demand += newDemand }
  }

  func cancel() {
    let (subscription, clock, ended) = lock.withLock {
      () -> ((any Subscription)?, (any Cancellable)?, (Downstream?, [Input])) in
      defer {
        status = .terminal
        generation += 1
        buffer = []
      }
      return (status.subscription, self.clock.take(), (downstream.take(), buffer))
    }
    drain.end()
    clock?.cancel()
    subscription?.cancel()
    withExtendedLifetime(ended) {}
  }

  var description: String { "CollectByTime" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Publishes values in groups: every interval (`.byTime`), or every interval or whenever a
  /// count is reached (`.byTimeOrCount`).
  ///
  ///     taps.collect(.byTime(DispatchQueue.main, .seconds(1)))
  public func collect<S: Scheduler>(
    _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
  )
    -> Publishers.CollectByTime<Self, S>
  {
    Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
  }
}
