import KVOLiteLocking

extension Publishers {
  /// A publisher that subscribes to its upstream, and sends it requests and cancellation, on
  /// a scheduler; values and the completion arrive wherever upstream sends them. Its
  /// subscription is "SubscribeOn".
  public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher subscribed to.
    public let upstream: Upstream
    /// Where it is subscribed to, asked and cancelled.
    public let scheduler: Context
    /// How those are scheduled.
    public let options: Context.SchedulerOptions?

    /// `upstream`, subscribed to on `scheduler`.
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let (scheduler, options, upstream) = (self.scheduler, self.options, self.upstream)
      let inner = SubscribeOnInner(downstream: subscriber) {
        scheduler.schedule(options: options, $0)
      }
      scheduler.schedule(options: options) { upstream.subscribe(inner) }
    }
  }
}

/// The subscription of `subscribe(on:)`, with Combine's state machine: requests (`.none` too)
/// and the cancel are scheduled, each action keeping this object alive until it runs; a
/// request made from inside the request being passed upstream, on the same thread, traps (as
/// in Combine); a cancel before the subscription does nothing. Requests and the cancel reach
/// upstream in the order they were made, one at a time, whatever order a concurrent scheduler
/// runs their actions in (a ``SerialDrain``). Thread-safe: one state behind one lock.
private final class SubscribeOnInner<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  private let schedule: (@escaping () -> Void) -> Void
  private let drain = SerialDrain()
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  /// The threads passing a request on to upstream now.
  private var requesting = CallingThreads()

  init(downstream: Downstream, schedule: @escaping (@escaping () -> Void) -> Void) {
    self.downstream = downstream
    self.schedule = schedule
  }

  func receive(subscription: any Subscription) {
    guard let downstream = lock.withLock({ status.accept(subscription) ? downstream : nil }) else {
      return subscription.cancel()
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let downstream = lock.withLock({ status.isSubscribed ? downstream : nil }) else {
      return .none
    }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let downstream = lock.withLock { () -> Downstream? in
      defer { status = .terminal }
      return status.isSubscribed ? self.downstream.take() : nil
    }
    downstream?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    guard let subscription = lock.withLock({ status.subscription }) else { return }
    let place = drain.reserve()
    schedule { self.drain.run(place) { self.forward(demand, to: subscription) } }
  }

  /// Passes a request on to upstream (on the scheduler). A request made while one is passed on,
  /// on the same thread (upstream requesting from inside its `request`, on a scheduler that
  /// runs actions at once), traps, as in Combine.
  private func forward(_ demand: Subscribers.Demand, to subscription: any Subscription) {
    lock.lock()
    guard !requesting.containsCurrent else {
      lock.unlock()
      fatalError(
        "SubscribeOn was asked for values from inside the request it was passing upstream")
    }
    requesting.enter()
    lock.unlock()
    subscription.request(demand)
    lock.withLock { requesting.leave() }
  }

  func cancel() {
    let (subscription, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      guard let subscription = status.subscription else { return (nil, nil) }
      status = .terminal
      return (subscription, self.downstream.take())
    }
    withExtendedLifetime(downstream) {}
    guard let subscription else { return }
    let place = drain.reserve()
    schedule { self.drain.run(place) { subscription.cancel() } }
  }

  var description: String { "SubscribeOn" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Subscribes to this publisher, and sends it requests and cancellation, on `scheduler`.
  public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil)
    -> Publishers.SubscribeOn<Self, S>
  {
    Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
  }
}
