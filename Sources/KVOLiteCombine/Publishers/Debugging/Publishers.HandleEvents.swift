import KVOLiteLocking

extension Publishers {
  /// A publisher that calls closures when publishing events happen, for side effects such as
  /// logging. Its subscription is "HandleEvents" (see `HandleEventsInner` for the state
  /// machine); it keeps the closures, not the upstream publisher. Thread-safe.
  public struct HandleEvents<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose events are reported.
    public let upstream: Upstream
    /// Called with upstream's subscription, before downstream receives it.
    public var receiveSubscription: ((any Subscription) -> Void)?
    /// Called with each value, before downstream receives it.
    public var receiveOutput: ((Output) -> Void)?
    /// Called with the completion, before downstream receives it.
    public var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    /// Called when downstream cancels, before upstream is cancelled.
    public var receiveCancel: (() -> Void)?
    /// Called with each demand downstream signals, before it goes upstream.
    public var receiveRequest: ((Subscribers.Demand) -> Void)?

    /// A publisher that reports `upstream`'s events to the given closures.
    public init(
      upstream: Upstream, receiveSubscription: ((any Subscription) -> Void)? = nil,
      receiveOutput: ((Output) -> Void)? = nil,
      receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
      receiveCancel: (() -> Void)? = nil, receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
      self.receiveCancel = receiveCancel
      self.receiveRequest = receiveRequest
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(HandleEventsInner(downstream: subscriber, events: self))
    }
  }
}

/// The subscription of `handleEvents`, with Combine's state machine:
///
/// - each event calls its closure, then goes on: the subscription is taken once (a second is
///   cancelled, its closure called all the same), a value and a completion are handed on even
///   before the subscription, a request (`.none` too) reaches upstream once it is subscribed,
///   a cancel before the subscription only calls its closure;
/// - the demand downstream answers a value with is reported to `receiveRequest` and returned;
/// - at the completion or a cancel the closures are let go of; what a misbehaving upstream
///   sends afterwards still reaches the subscriber while it is alive (see
///   ``EndingDownstream``), without the closures.
///
/// It keeps the closures, not the `HandleEvents` publisher: the upstream publisher is not kept
/// alive by a subscription. Thread-safe: one state behind one lock; closures and downstream
/// are called after unlocking.
private final class HandleEventsInner<Upstream: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// The closures, until the end.
  private struct Hooks {
    var receiveSubscription: ((any Subscription) -> Void)?
    var receiveOutput: ((Input) -> Void)?
    var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    var receiveCancel: (() -> Void)?
    var receiveRequest: ((Subscribers.Demand) -> Void)?
  }

  private var downstream: EndingDownstream<Downstream>
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var hooks: Hooks?

  init(downstream: Downstream, events: Publishers.HandleEvents<Upstream>) {
    self.downstream = EndingDownstream(downstream)
    hooks = Hooks(
      receiveSubscription: events.receiveSubscription, receiveOutput: events.receiveOutput,
      receiveCompletion: events.receiveCompletion, receiveCancel: events.receiveCancel,
      receiveRequest: events.receiveRequest)
  }

  /// The hooks until the end, for calling after unlocking.
  private var current: Hooks? { lock.withLock { hooks } }

  /// Ends, with the lock held: what was let go of, for release after unlocking.
  private func terminate() -> (Hooks?, Downstream?) {
    status = .terminal
    return (hooks.take(), downstream.end())
  }

  func receive(subscription: any Subscription) {
    current?.receiveSubscription?(subscription)
    lock.lock()
    guard status.accept(subscription), let downstream = downstream.live else {
      lock.unlock()
      return subscription.cancel()
    }
    lock.unlock()
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    let (hooks, downstream) = lock.withLock { (self.hooks, self.downstream.reachable) }
    hooks?.receiveOutput?(input)
    guard let downstream else { return .none }
    let demand = downstream.receive(input)
    if demand != .none { current?.receiveRequest?(demand) }
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    current?.receiveCompletion?(completion)
    let (hooks, ended, reachable) = lock.withLock { () -> (Hooks?, Downstream?, Downstream?) in
      let (hooks, ended) = terminate()
      return (hooks, ended, ended == nil ? downstream.reachable : nil)
    }
    withExtendedLifetime(hooks) {}
    (ended ?? reachable)?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    current?.receiveRequest?(demand)
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    current?.receiveCancel?()
    let ended = lock.withLock { () -> (any Subscription, (Hooks?, Downstream?))? in
      guard let subscription = status.subscription else { return nil }
      return (subscription, terminate())
    }
    ended?.0.cancel()
    withExtendedLifetime(ended) {}
  }

  var description: String { "HandleEvents" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Calls the given closures when events happen: subscription, value, completion,
  /// cancellation, demand request.
  public func handleEvents(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveOutput: ((Output) -> Void)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
    receiveCancel: (() -> Void)? = nil, receiveRequest: ((Subscribers.Demand) -> Void)? = nil
  ) -> Publishers.HandleEvents<Self> {
    Publishers.HandleEvents(
      upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion, receiveCancel: receiveCancel,
      receiveRequest: receiveRequest)
  }
}
