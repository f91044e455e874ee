import KVOLiteLocking

extension Publishers {
  /// A publisher that calls closures when publishing events happen, for side effects such as
  /// logging.
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

/// The subscription of `handleEvents` ("HandleEvents"): calls each hook, then passes the event
/// on, as Combine does: hooks run whatever the state (a value before subscription is reported
/// and passed on), a request hook sees every demand downstream asks for (through `request` or
/// returned from a value, if not `.none`), and the hooks are released, outside the lock, when
/// the subscription completes or is cancelled, as is its downstream.
private final class HandleEventsInner<Upstream: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  /// The hooks; `nil` once the subscription has ended.
  private var events: Publishers.HandleEvents<Upstream>?

  init(downstream: Downstream, events: Publishers.HandleEvents<Upstream>) {
    self.downstream = downstream
    self.events = events
  }

  private var hooks: Publishers.HandleEvents<Upstream>? { lock.withLock { events } }

  /// What the subscription lets go of when it ends: upstream's subscription, the hooks and the
  /// subscriber, released by the caller after the lock.
  private typealias Ended = (
    subscription: (any Subscription)?, events: Publishers.HandleEvents<Upstream>?,
    downstream: Downstream?
  )

  /// Ends the subscription, with the lock held.
  private func end() -> Ended {
    defer { status = .terminal }
    return (status.subscription, events.take(), downstream.take())
  }

  func receive(subscription: any Subscription) {
    hooks?.receiveSubscription?(subscription)
    guard let downstream = lock.withLock({ status.accept(subscription) ? downstream : nil }) else {
      return subscription.cancel()
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    let events = self.events
    let downstream = self.downstream
    lock.unlock()
    events?.receiveOutput?(input)
    guard let downstream else { return .none }
    let demand = downstream.receive(input)
    if demand != .none { hooks?.receiveRequest?(demand) }
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    hooks?.receiveCompletion?(completion)
    let ended = lock.withLock { end() }
    ended.downstream?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    hooks?.receiveRequest?(demand)
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    hooks?.receiveCancel?()
    let ended = lock.withLock { () -> Ended? in status.isSubscribed ? end() : nil }
    ended?.subscription?.cancel()
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
