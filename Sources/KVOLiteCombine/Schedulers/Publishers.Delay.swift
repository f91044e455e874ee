extension Publishers {
  /// A publisher that delivers each of its upstream's values, and its completion, a fixed
  /// interval after it arrived, on a scheduler. As in Combine, its subscription does not
  /// describe itself; see `ScheduledDeliveryInner` for the state machine. Thread-safe.
  public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose events are delayed.
    public let upstream: Upstream
    /// How long each event waits.
    public let interval: Context.SchedulerTimeType.Stride
    /// The tolerance allowed the scheduler.
    public let tolerance: Context.SchedulerTimeType.Stride
    /// Where events are delivered.
    public let scheduler: Context
    /// How they are scheduled.
    public let options: Context.SchedulerOptions?

    /// `upstream`'s events, each delivered `interval` later on `scheduler`.
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride,
      tolerance: Context.SchedulerTimeType.Stride,
      scheduler: Context, options: Context.SchedulerOptions? = nil
    ) {
      self.upstream = upstream
      self.interval = interval
      self.tolerance = tolerance
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let (scheduler, interval, tolerance, options) = (
        self.scheduler, self.interval, self.tolerance, self.options
      )
      upstream.subscribe(
        ScheduledDeliveryInner(downstream: subscriber) {
          scheduler.schedule(
            after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, $0)
        })
    }
  }
}

extension Publisher {
  /// Delivers each value and the completion `interval` later, on `scheduler`.
  public func delay<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil,
    scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> Publishers.Delay<Self, S> {
    Publishers.Delay(
      upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
      scheduler: scheduler,
      options: options)
  }
}
