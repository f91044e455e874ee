import KVOLiteLocking

/// The subscription of `catch` and `tryCatch`, with Combine's state machine: waiting for
/// upstream's subscription, subscribed to upstream, waiting for the replacement's subscription,
/// subscribed to the replacement, ended.
///
/// - Downstream's demand is counted while upstream is subscribed, so that the replacement is
///   asked for what is left; a value from upstream that downstream did not ask for traps, as
///   in Combine; values from the replacement are handed on as they come.
/// - A `.finished` from upstream ends it, otherwise it is ignored; a failure from upstream
///   subscribes the replacement, is ignored after the end, and traps when it arrives before
///   upstream's subscription or a second time (as in Combine).
/// - Requests and cancels go to whichever side is subscribed; a request for `.none`, or before
///   the subscription, traps; a cancel while the replacement is being subscribed does nothing
///   (the replacement is then asked for the demand and delivers, as in Combine).
/// - Values that upstream sends after the end still reach the subscriber while it is alive
///   (see ``EndingDownstream``); the handler is let go of at the end.
///
/// Thread-safe: one state behind one lock; nothing is called with it held.
final class CatchInner<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>:
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Upstream.Output, NewPublisher.Output == Upstream.Output {
  // @unchecked: the mutable state is behind `lock`.
  private enum State {
    case awaitingUpstream
    case upstream(any Subscription)
    case awaitingReplacement
    case replacement(any Subscription)
    case ended
  }

  private var downstream: EndingDownstream<Downstream>
  private let name: String
  private let mapFailure: (NewPublisher.Failure) -> Downstream.Failure
  /// Makes the replacement; let go of when the subscription ends.
  private var handler: ((Upstream.Failure) throws(Downstream.Failure) -> NewPublisher)?
  private let lock = Lock()
  private var state = State.awaitingUpstream
  private var demand = Subscribers.Demand.none

  init(
    downstream: Downstream, name: String,
    mapFailure: @escaping (NewPublisher.Failure) -> Downstream.Failure,
    handler: @escaping (Upstream.Failure) throws(Downstream.Failure) -> NewPublisher
  ) {
    self.downstream = EndingDownstream(downstream)
    self.name = name
    self.mapFailure = mapFailure
    self.handler = handler
  }

  /// Ends, with the lock held: what was let go of, to complete or release after unlocking.
  private func end() -> (downstream: Downstream?, handler: Any?) {
    state = .ended
    return (downstream.end(), handler.take())
  }

  // MARK: Upstream

  /// What `catch` subscribes to upstream; shares the subscription's identifier and reflection.
  struct UpstreamSide: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
    let inner: CatchInner
    var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }
    var description: String { inner.description }
    var customMirror: Mirror { inner.customMirror }
    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) { inner.receiveUpstream(subscription) }
    func receive(_ input: Upstream.Output) -> Subscribers.Demand { inner.receiveUpstream(input) }
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      inner.receiveUpstream(completion)
    }
  }

  private func receiveUpstream(_ subscription: any Subscription) {
    lock.lock()
    guard case .awaitingUpstream = state, let downstream = downstream.live else {
      lock.unlock()
      return subscription.cancel()
    }
    state = .upstream(subscription)
    lock.unlock()
    downstream.receive(subscription: self)
  }

  private func receiveUpstream(_ input: Upstream.Output) -> Subscribers.Demand {
    lock.lock()
    guard demand > 0 else {
      lock.unlock()
      fatalError("\(name) received a value that its subscriber did not request")
    }
    demand -= 1
    let downstream = self.downstream.reachable
    lock.unlock()
    guard let downstream else { return .none }
    let more = downstream.receive(input)
    if more > 0 { lock.withLock { demand += more } }
    return more
  }

  private func receiveUpstream(_ completion: Subscribers.Completion<Upstream.Failure>) {
    lock.lock()
    switch (state, completion) {
    case (.upstream, .finished):
      let ended = end()
      lock.unlock()
      ended.downstream?.receive(completion: .finished)
    case (.upstream, .failure(let error)):
      state = .awaitingReplacement
      let handler = self.handler
      lock.unlock()
      do {
        try handler?(error).subscribe(ReplacementSide(inner: self))
      } catch {
        let ended = lock.withLock { end() }
        ended.downstream?.receive(completion: .failure(error))
      }
    case (_, .finished), (.ended, .failure):
      lock.unlock()
    case (.awaitingUpstream, .failure), (.awaitingReplacement, .failure),
      (.replacement, .failure):
      lock.unlock()
      fatalError(
        "\(name) received a failure before its subscription, or after it had one")
    }
  }

  // MARK: Replacement

  /// What `catch` subscribes to the replacement publisher; shares the subscription's
  /// identifier and reflection.
  struct ReplacementSide: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
    let inner: CatchInner
    var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }
    var description: String { inner.description }
    var customMirror: Mirror { inner.customMirror }
    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) { inner.receiveReplacement(subscription) }
    func receive(_ input: NewPublisher.Output) -> Subscribers.Demand {
      inner.receiveReplacement(input)
    }
    func receive(completion: Subscribers.Completion<NewPublisher.Failure>) {
      inner.receiveReplacement(completion)
    }
  }

  private func receiveReplacement(_ subscription: any Subscription) {
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard case .awaitingReplacement = state else { return nil }
      state = .replacement(subscription)
      return self.demand
    }
    guard let demand else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  private func receiveReplacement(_ input: NewPublisher.Output) -> Subscribers.Demand {
    guard let downstream = lock.withLock({ downstream.reachable }) else { return .none }
    return downstream.receive(input)
  }

  private func receiveReplacement(_ completion: Subscribers.Completion<NewPublisher.Failure>) {
    let ended = lock.withLock { () -> (downstream: Downstream?, handler: Any?)? in
      guard case .replacement = state else { return nil }
      return end()
    }
    guard let downstream = ended?.downstream else { return }
    switch completion {
    case .finished: downstream.receive(completion: .finished)
    case .failure(let error): downstream.receive(completion: .failure(mapFailure(error)))
    }
  }

  // MARK: Downstream

  func request(_ newDemand: Subscribers.Demand) {
    require(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    lock.lock()
    switch state {
    case .awaitingUpstream:
      lock.unlock()
      fatalError("\(name) received a request before sending its subscription")
    case .upstream(let subscription):
      demand += newDemand
      lock.unlock()
      subscription.request(newDemand)
    case .awaitingReplacement:
      demand += newDemand
      lock.unlock()
    case .replacement(let subscription):
      lock.unlock()
      subscription.request(newDemand)
    case .ended:
      lock.unlock()
    }
  }

  func cancel() {
    lock.lock()
    switch state {
    case .upstream(let subscription), .replacement(let subscription):
      let ended = end()
      lock.unlock()
      subscription.cancel()
      withExtendedLifetime(ended) {}
    case .awaitingUpstream, .awaitingReplacement, .ended:
      lock.unlock()
    }
  }

  var description: String { name }
  var customMirror: Mirror {
    let (downstream, demand) = lock.withLock { (self.downstream.reachable, self.demand) }
    return Mirror(self, children: [("downstream", downstream as Any), ("demand", demand)])
  }
  var playgroundDescription: Any { description }
}
