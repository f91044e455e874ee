extension Publishers {
  /// A publisher that calls closures when publishing events happen, for side effects such as
  /// logging.
  public struct HandleEvents<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    public let upstream: Upstream
    public var receiveSubscription: ((any Subscription) -> Void)?
    public var receiveOutput: ((Output) -> Void)?
    public var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    public var receiveCancel: (() -> Void)?
    public var receiveRequest: ((Subscribers.Demand) -> Void)?

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

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(HandleEventsInner(downstream: subscriber, events: self))
    }
  }
}

/// The subscription of `handleEvents`: calls each hook, then passes the event on.
private final class HandleEventsInner<Upstream: Publisher, Downstream: Subscriber>:
  OperatorSubscription<Downstream>, Subscriber, @unchecked Sendable
where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
  typealias Input = Upstream.Output
  typealias Failure = Upstream.Failure

  private let events: Publishers.HandleEvents<Upstream>

  init(downstream: Downstream, events: Publishers.HandleEvents<Upstream>) {
    self.events = events
    super.init(downstream: downstream)
  }

  func receive(subscription: any Subscription) {
    accept(subscription, events.receiveSubscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard isSubscribed else { return .none }
    events.receiveOutput?(input)
    let demand = downstream.receive(input)
    if demand > 0 { events.receiveRequest?(demand) }
    return demand
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    guard isSubscribed else { return }
    events.receiveCompletion?(completion)
    finish(completion)
  }

  override func request(_ demand: Subscribers.Demand) {
    events.receiveRequest?(demand)
    super.request(demand)
  }

  override func cancel() {
    guard isSubscribed else { return }
    events.receiveCancel?()
    end()
  }
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
