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

/// The subscription of `throttle`, with Combine's state machine:
///
/// - the clock is read when this is made, at the subscription, at each value and at the
///   completion that arrive while subscribed, and when a value is emitted;
/// - upstream is asked for `.unlimited` before downstream has its subscription; downstream's
///   requests only add to the demand kept here (`.none` is ignored);
/// - a value that arrives without demand is dropped; otherwise, if nothing is waiting, it
///   waits and uses one unit of demand, and its emission is scheduled now (`schedule`) or at
///   the end of the interval since the last emission (`schedule(after:)`); if something is
///   waiting, the latest value replaces it (`latest: true`) or is dropped;
/// - the completion goes out with the waiting value, or is scheduled on its own; a cancel,
///   even after upstream's completion, stops both;
/// - scheduled actions refer to this object weakly, as Combine's do: once nothing else keeps
///   it, they do nothing. A cancel before the subscription cancels the subscription when it
///   comes;
/// - the emissions the scheduler runs go through a ``SerialDrain``, one at a time, in the
///   order they were scheduled, whatever order a concurrent scheduler runs them in.
///
/// Deliveries are serialized by a recursive lock; the state is behind `lock` and nothing is
/// called with it held (the clock is read outside it). Downstream is let go of once it has its
/// completion, or on cancel.
private final class ThrottleInner<Downstream: Subscriber, Context: Scheduler>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`; downstream is called under `delivery`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private enum State {
    case awaitingSubscription
    case subscribed(any Subscription)
    /// Upstream's completion arrived and waits to be emitted.
    case pendingTerminal(any Subscription)
    case terminal
  }

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
  private let interval: Context.SchedulerTimeType.Stride
  private let scheduler: Context
  private let latest: Bool
  private let drain = SerialDrain()
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var state = State.awaitingSubscription
  private var demand = Subscribers.Demand.none
  private var lastEmission: Context.SchedulerTimeType?
  private var lastTime: Context.SchedulerTimeType
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
    lastTime = scheduler.now
  }

  private var isSubscribed: Bool {
    if case .subscribed = state { return true }
    return false
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard case .awaitingSubscription = state, let downstream else {
      lock.unlock()
      return subscription.cancel()
    }
    state = .subscribed(subscription)
    lock.unlock()
    let now = scheduler.now
    lock.withLock { lastTime = now }
    subscription.request(.unlimited)
    delivery.withLock { downstream.receive(subscription: self) }
  }

  /// What a value or completion leads to once the state is updated.
  private enum Step {
    case nothing
    case scheduleNow
    case scheduleAt(Context.SchedulerTimeType)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard lock.withLock({ isSubscribed }) else { return .none }
    let now = scheduler.now
    var replaced: Input?  // Released after unlocking.
    let step = lock.withLock { () -> Step in
      guard isSubscribed else { return .nothing }
      lastTime = now
      guard demand > 0 else { return .nothing }
      let waiting = pendingValue != nil || pendingCompletion != nil
      if waiting {
        if latest {
          replaced = pendingValue
          pendingValue = input
        }
        return .nothing
      }
      demand -= 1
      pendingValue = input
      guard let earliest = lastEmission?.advanced(by: interval), earliest > now else {
        return .scheduleNow
      }
      return .scheduleAt(earliest)
    }
    withExtendedLifetime(replaced) {}
    schedule(step)
    return .none
  }

  private func schedule(_ step: Step) {
    if case .nothing = step { return }
    let place = drain.reserve()
    let emission = { [weak self] in
      guard let self else { return }
      drain.run(place) { [weak self] in self?.emit() }
    }
    switch step {
    case .nothing: break
    case .scheduleNow: scheduler.schedule(emission)
    case .scheduleAt(let time): scheduler.schedule(after: time, emission)
    }
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard lock.withLock({ isSubscribed }) else { return }
    let now = scheduler.now
    let step = lock.withLock { () -> Step in
      guard case .subscribed(let subscription) = state else { return .nothing }
      lastTime = now
      state = .pendingTerminal(subscription)
      let waiting = pendingValue != nil || pendingCompletion != nil
      guard pendingCompletion == nil else { return .nothing }
      pendingCompletion = completion
      return waiting ? .nothing : .scheduleNow
    }
    schedule(step)
  }

  /// Emits the waiting value and/or completion.
  private func emit() {
    guard
      let hasValue = lock.withLock({ () -> Bool? in
        switch state {
        case .awaitingSubscription, .terminal: nil
        case .subscribed, .pendingTerminal: pendingValue != nil && pendingCompletion == nil
        }
      })
    else { return }
    let now = hasValue ? scheduler.now : nil
    var more = Subscribers.Demand.none
    delivery.withLock {
      let (downstream, value, completion) = lock.withLock {
        () -> (Downstream?, Input?, Subscribers.Completion<Failure>?) in
        switch state {
        case .awaitingSubscription, .terminal: return (nil, nil, nil)
        case .subscribed, .pendingTerminal: break
        }
        if let now, pendingValue != nil { lastEmission = now }
        let completion = pendingCompletion.take()
        if completion != nil { state = .terminal }
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
    guard newDemand > 0 else { return }
    lock.withLock { if isSubscribed { demand += newDemand } }
  }

  func cancel() {
    let (subscription, ended) = lock.withLock {
      () -> ((any Subscription)?, (Downstream?, Input?)) in
      let subscription: (any Subscription)?
      switch state {
      case .subscribed(let current), .pendingTerminal(let current): subscription = current
      case .awaitingSubscription, .terminal: subscription = nil
      }
      state = .terminal
      return (subscription, (downstream.take(), pendingValue.take()))
    }
    drain.end()
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
