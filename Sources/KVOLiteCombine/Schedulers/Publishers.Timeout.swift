import KVOLiteLocking

extension Publishers {
  /// A publisher that ends if its upstream publishes nothing for an interval: with
  /// `customError`'s failure, or `.finished` without one.
  ///
  /// As Combine's: the clock starts at subscription, starts again at downstream's first
  /// request and at every value; values and the completion are delivered on the scheduler; a
  /// timeout cancels upstream. Its subscription is "Timeout".
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

/// The subscription of `timeout`. Each start of the clock gets a generation; a timer whose
/// generation is no longer the latest does nothing. Deliveries check the state with the
/// delivery lock held, so no value follows the completion; downstream and the error closure
/// are let go of once the subscription ends.
private final class TimeoutInner<Downstream: Subscriber, Context: Scheduler>: Subscriber,
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
  private let options: Context.SchedulerOptions?
  private var customError: (() -> Failure)?
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var clock = 0
  private var requested = false
  private var timedOut = false

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

  /// Starts the clock again (`clock` is already the new generation).
  private func startClock(_ generation: Int) {
    scheduler.schedule(
      after: scheduler.now.advanced(by: interval), tolerance: scheduler.minimumTolerance,
      options: options
    ) { [self] in expire(generation) }
  }

  private func expire(_ generation: Int) {
    let ended = lock.withLock { () -> (any Subscription, Ended)? in
      guard generation == clock, !timedOut, let subscription = status.subscription else {
        return nil
      }
      timedOut = true
      return (subscription, end())
    }
    guard let (subscription, (downstream, customError)) = ended else { return }
    subscription.cancel()
    delivery.withLock {
      downstream?.receive(completion: customError.map { .failure($0()) } ?? .finished)
    }
  }

  /// What the subscription lets go of when it ends, to complete or release after unlocking.
  private typealias Ended = (downstream: Downstream?, customError: (() -> Failure)?)

  /// Ends, with the lock held.
  private func end() -> Ended {
    status = .terminal
    return (downstream.take(), customError.take())
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard status.accept(subscription), let downstream else {
      lock.unlock()
      return subscription.cancel()
    }
    clock += 1
    let generation = clock
    lock.unlock()
    startClock(generation)
    delivery.withLock { downstream.receive(subscription: self) }
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard
      let generation = lock.withLock({ () -> Int? in
        guard !timedOut, status.isSubscribed else { return nil }
        clock += 1
        return clock
      })
    else { return .none }
    startClock(generation)
    scheduler.schedule(options: options) { [self] in
      let (subscription, more) = delivery.withLock {
        () -> ((any Subscription)?, Subscribers.Demand) in
        let live = lock.withLock { () -> (any Subscription, Downstream)? in
          guard !timedOut, let subscription = status.subscription, let downstream else {
            return nil
          }
          return (subscription, downstream)
        }
        guard let (subscription, downstream) = live else { return (nil, .none) }
        return (subscription, downstream.receive(input))
      }
      if more > 0 { subscription?.request(more) }
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard
      lock.withLock({ () -> Bool in
        guard status.isSubscribed else { return false }
        clock += 1  // stops the clock
        return true
      })
    else { return }
    scheduler.schedule(options: options) { [self] in
      let ended = lock.withLock { () -> Ended? in
        guard status.isSubscribed, !timedOut else { return nil }
        return end()
      }
      guard let downstream = ended?.downstream else { return }
      delivery.withLock { downstream.receive(completion: completion) }
    }
  }

  func request(_ demand: Subscribers.Demand) {
    let (subscription, restart) = lock.withLock { () -> ((any Subscription)?, Int?) in
      guard let subscription = status.subscription else { return (nil, nil) }
      guard !requested else { return (subscription, nil) }
      requested = true
      clock += 1
      return (subscription, clock)
    }
    if let restart { startClock(restart) }
    subscription?.request(demand)
  }

  func cancel() {
    let (subscription, ended) = lock.withLock { () -> ((any Subscription)?, Ended) in
      clock += 1
      return (status.subscription, end())
    }
    subscription?.cancel()
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
