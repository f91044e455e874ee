import KVOLiteLocking

extension Publishers {
  /// A publisher that ends if its upstream publishes nothing for an interval: with
  /// `customError`'s failure, or `.finished` without one.
  ///
  /// As Combine's: the clock starts at subscription, starts again at downstream's first
  /// request and at every value; values and the completion are delivered on the scheduler; a
  /// timeout cancels upstream. Its subscription is "Timeout" (see `TimeoutInner` for the state
  /// machine). Thread-safe.
  public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher watched.
    public let upstream: Upstream
    /// The longest quiet time allowed.
    public let interval: Context.SchedulerTimeType.Stride
    /// Where the clock runs and events are delivered.
    public let scheduler: Context
    /// How they are scheduled.
    public let options: Context.SchedulerOptions?
    /// The failure to end with; `nil` to finish.
    public let customError: (() -> Upstream.Failure)?

    /// `upstream`, ended after `interval` of quiet.
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?, customError: (() -> Upstream.Failure)?
    ) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.options = options
      self.customError = customError
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        TimeoutInner(
          downstream: subscriber, interval: interval, scheduler: scheduler, options: options,
          customError: customError))
    }
  }
}

/// The subscription of `timeout`, with Combine's state machine:
///
/// - the clock is a repeating timer (`schedule(after:interval:tolerance:options:)`, the
///   interval being the timeout) whose token is kept: it is armed at the subscription, armed
///   again (the previous token cancelled) at downstream's first request (`.none` too) and at
///   every value;
/// - values are delivered on the scheduler (`schedule(options:)`) unless the timeout came
///   first; the demand downstream answers with is requested from upstream;
/// - the completion cancels the clock and is delivered on the scheduler;
/// - when the clock fires, upstream is cancelled and downstream completes with `customError`'s
///   failure, or `.finished`; a scheduler that runs the timer at once, inside the call that
///   arms it (`ImmediateScheduler`), traps, as it does in Combine;
/// - what the scheduler runs (each value's and the completion's delivery, the timeout) goes
///   through a ``SerialDrain``, in the order it was scheduled (the timeout in the order it
///   fired), one at a time, whatever order a concurrent scheduler runs it in;
/// - a cancel before the subscription does nothing.
///
/// Scheduled actions keep this object alive until they run (the clock's until it is
/// cancelled). Deliveries are serialized by a recursive lock; the state is behind `lock` and
/// nothing is called with it held. Downstream and the error closure are let go of once the
/// subscription ends, and the clock is cancelled.
private final class TimeoutInner<Downstream: Subscriber, Context: Scheduler>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`; downstream is called under `delivery`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
  private let interval: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let options: Context.SchedulerOptions?
  private var customError: (() -> Failure)?
  private let drain = SerialDrain()
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var timedOut = false
  private var requested = false
  /// The clock's token, and the generation it belongs to (a token armed for an older
  /// generation is cancelled, not kept).
  private var clock: (any Cancellable)?
  private var generation = 0
  /// The threads arming the clock now: the clock firing on one of them, inside the call that
  /// arms it, is the case that traps.
  private var arming = CallingThreads()

  init(
    downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?, customError: (() -> Failure)?
  ) {
    self.downstream = downstream
    self.interval = interval
    self.scheduler = scheduler
    self.options = options
    self.customError = customError
  }

  /// With the lock held: a new generation of the clock, whose timer the caller arms after
  /// unlocking; the previous token, for the caller to cancel after unlocking.
  private func nextGeneration() -> (generation: Int, previous: (any Cancellable)?) {
    generation += 1
    arming.enter()
    return (generation, clock.take())
  }

  /// Arms the clock for `armed` (see ``nextGeneration()``), and cancels `previous`.
  private func arm(_ armed: Int, replacing previous: (any Cancellable)?) {
    previous?.cancel()
    let token = scheduler.schedule(
      after: scheduler.now.advanced(by: interval), interval: interval,
      tolerance: scheduler.minimumTolerance, options: options
    ) { self.expire() }
    let kept = lock.withLock { () -> Bool in
      arming.leave()
      guard armed == generation, status.isSubscribed, !timedOut else { return false }
      clock = token
      return true
    }
    if !kept { token.cancel() }
  }

  /// The clock fired (on the scheduler): the timeout takes its turn in the drain.
  private func expire() {
    lock.lock()
    guard !arming.containsCurrent else {
      lock.unlock()
      fatalError(
        "timeout's scheduler ran its timer at once, inside the call that armed it (as "
          + "ImmediateScheduler does): the timeout cannot work, and Combine traps too")
    }
    lock.unlock()
    drain.run { self.timeOut() }
  }

  private func timeOut() {
    lock.lock()
    guard !timedOut, let subscription = status.subscription else { return lock.unlock() }
    timedOut = true
    status = .terminal
    let (downstream, customError, clock) = (
      self.downstream.take(), self.customError.take(), self.clock.take()
    )
    lock.unlock()
    drain.end()
    clock?.cancel()
    subscription.cancel()
    guard let downstream else { return }
    delivery.withLock {
      downstream.receive(completion: customError.map { .failure($0()) } ?? .finished)
    }
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard status.accept(subscription), let downstream else {
      lock.unlock()
      return subscription.cancel()
    }
    let (armed, previous) = nextGeneration()
    lock.unlock()
    arm(armed, replacing: previous)
    delivery.withLock { downstream.receive(subscription: self) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard !timedOut, status.isSubscribed else {
      lock.unlock()
      return .none
    }
    let (armed, previous) = nextGeneration()
    lock.unlock()
    arm(armed, replacing: previous)
    let place = drain.reserve()
    scheduler.schedule(options: options) { self.drain.run(place) { self.deliver(input) } }
    return .none
  }

  private func deliver(_ input: Input) {
    let live = lock.withLock { () -> (any Subscription, Downstream)? in
      guard !timedOut, let subscription = status.subscription, let downstream else { return nil }
      return (subscription, downstream)
    }
    guard let (subscription, downstream) = live else { return }
    let more = delivery.withLock { downstream.receive(input) }
    if more > 0 { subscription.request(more) }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard status.isSubscribed else { return lock.unlock() }
    let clock = self.clock.take()
    generation += 1  // stops an arming in flight from keeping its token
    lock.unlock()
    clock?.cancel()
    let place = drain.reserve()
    scheduler.schedule(options: options) { self.drain.run(place) { self.deliver(completion) } }
  }

  private func deliver(_ completion: Subscribers.Completion<Failure>) {
    let ended = lock.withLock { () -> (Downstream?, (() -> Failure)?)? in
      guard status.isSubscribed else { return nil }
      status = .terminal
      return (downstream.take(), customError.take())
    }
    guard let (downstream, _) = ended, let downstream else { return }
    delivery.withLock { downstream.receive(completion: completion) }
  }

  func request(_ demand: Subscribers.Demand) {
    lock.lock()
    guard let subscription = status.subscription else { return lock.unlock() }
    guard !requested else {
      lock.unlock()
      return subscription.request(demand)
    }
    requested = true
    let (armed, previous) = nextGeneration()
    lock.unlock()
    arm(armed, replacing: previous)
    subscription.request(demand)
  }

  func cancel() {
    lock.lock()
    guard let subscription = status.subscription else { return lock.unlock() }
    status = .terminal
    let ended = (downstream.take(), customError.take(), clock.take())
    lock.unlock()
    drain.end()
    ended.2?.cancel()
    subscription.cancel()
    withExtendedLifetime(ended) {}
  }

  var description: String { "Timeout" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Ends this publisher if it publishes nothing for `interval`: with `customError`'s failure,
  /// or by finishing.
  ///
  ///     loader.timeout(.seconds(10), scheduler: DispatchQueue.main) { LoadError.timedOut }
  public func timeout<S: Scheduler>(
    _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
    customError: (() -> Failure)? = nil
  ) -> Publishers.Timeout<Self, S> {
    Publishers.Timeout(
      upstream: self, interval: interval, scheduler: scheduler, options: options,
      customError: customError)
  }
}
