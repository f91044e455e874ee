extension Publishers {
  /// A publisher that delivers its upstream's values and completion on a scheduler.
  ///
  /// As Combine's: the subscription is handed downstream at once (not on the scheduler);
  /// each value and the completion is scheduled in turn; the demand downstream answers with on
  /// the scheduler is then requested from upstream. A cancel stops values that are still
  /// waiting; a completion already scheduled is still delivered, as in Combine. Its
  /// subscription is "ReceiveOn" (see `ScheduledDeliveryInner` for the state machine).
  /// Thread-safe.
  public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
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

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let scheduler = self.scheduler
      let options = self.options
      upstream.subscribe(
        ReceiveOnInner(downstream: subscriber) {
          scheduler.schedule(options: options, $0)
        })
    }
  }
}

extension Publisher {
  /// Delivers values and the completion on `scheduler`.
  ///
  ///     model.publisher(for: \.name).receive(on: DispatchQueue.main).sink { label.text = $0 }
  public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.ReceiveOn<Self, S>
  {
    Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
  }
}
