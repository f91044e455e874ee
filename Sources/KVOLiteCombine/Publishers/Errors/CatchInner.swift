import KVOLiteLocking

/// The subscription of `catch` and `tryCatch`, with Combine's states: waiting for upstream's
/// subscription, subscribed to upstream, waiting for the replacement's subscription,
/// subscribed to the replacement, ended. Downstream's remaining demand is counted so that the
/// replacement is asked for it. A request before upstream's subscription, or a completion
/// before it, is a programming error and traps.
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

  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
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
    self.downstream = downstream
    self.name = name
    self.mapFailure = mapFailure
    self.handler = handler
  }

  // MARK: Upstream

  /// What `catch` subscribes to upstream.
  struct UpstreamSide: Subscriber {
    let inner: CatchInner
    var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }

    func receive(subscription: any Subscription) { inner.receiveUpstream(subscription) }
    func receive(_ input: Upstream.Output) -> Subscribers.Demand { inner.receiveUpstream(input) }
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      inner.receiveUpstream(completion)
    }
  }

  private func receiveUpstream(_ subscription: any Subscription) {
    lock.lock()
    guard case .awaitingUpstream = state, let downstream else {
      lock.unlock()
      return subscription.cancel()
    }
    state = .upstream(subscription)
    lock.unlock()
    downstream.receive(subscription: self)
  }

  private func receiveUpstream(_ input: Upstream.Output) -> Subscribers.Demand {
    lock.lock()
    guard let downstream else {
      lock.unlock()
      return .none
    }
    demand -= 1
    lock.unlock()
    let more = downstream.receive(input)
    lock.withLock { demand += more }
    return more
  }

  /// Ends, with the lock held: what was let go of, to complete or release after unlocking.
  private func end() -> (downstream: Downstream?, handler: Any?) {
    state = .ended
    return (downstream.take(), handler.take())
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
    case (.awaitingUpstream, _):
      lock.unlock()
      preconditionFailure("\(name) received a completion before receiving a subscription")
    case (.ended, _), (.awaitingReplacement, _), (.replacement, _):
      lock.unlock()
    }
  }

  // MARK: Replacement

  /// What `catch` subscribes to the replacement publisher.
  struct ReplacementSide: Subscriber {
    let inner: CatchInner
    var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }

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

  private func receiveReplacement(_ input: NewPublisher.Output) -> Subscribers.Demand {
    guard let downstream = lock.withLock({ downstream }) else { return .none }
    return downstream.receive(input)
  }

  // MARK: Downstream

  func request(_ newDemand: Subscribers.Demand) {
    precondition(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    lock.lock()
    switch state {
    case .awaitingUpstream:
      lock.unlock()
      preconditionFailure("\(name) received a request before sending its subscription")
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
    let (subscription, ended) = lock.withLock {
      () -> ((any Subscription)?, (downstream: Downstream?, handler: Any?)?) in
      switch state {
      case .upstream(let subscription), .replacement(let subscription):
        return (subscription, end())
      case .awaitingReplacement:
        return (nil, end())
      case .awaitingUpstream, .ended:
        return (nil, nil)
      }
    }
    subscription?.cancel()
    withExtendedLifetime(ended) {}
  }

  var description: String { name }
  var customMirror: Mirror {
    Mirror(
      self,
      children: lock.withLock { [("downstream", downstream as Any), ("demand", demand as Any)] })
  }
  var playgroundDescription: Any { description }
}
