import KVOLiteLocking

/// The subscription of `zip` over any number of upstreams, whose values are kept type-erased
/// in one queue per upstream and combined by `combine` (which knows their types): the storage
/// of a ``ZipStateMachine`` (Combine's state machine, described there), behind `lock`. Each
/// method makes one transition with the lock held and performs the action it returns after
/// unlocking.
///
/// Deliveries are serialized by a recursive lock, under which each tuple is also made, so
/// tuples reach downstream in order and none follows the completion; nothing is called with
/// `lock` held. Downstream is let go of when the subscription ends.
final class ZipInner<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Downstream.Failure
  private typealias Machine = ZipStateMachine<Failure>

  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  private let combine: ([Any]) -> Downstream.Input
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var machine: Machine

  init(downstream: Downstream, count: Int, combine: @escaping ([Any]) -> Downstream.Input) {
    self.downstream = downstream
    self.combine = combine
    machine = Machine(count: count)
  }

  /// The subscriber for upstream `index`.
  func side<Input>(_ index: Int, _ type: Input.Type = Input.self) -> Side<Input> {
    Side(index: index, inner: self)
  }

  /// What `zip` subscribes to one upstream.
  struct Side<Input>: Subscriber {
    let index: Int
    let inner: ZipInner
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { inner.receive(subscription, index) }
    func receive(_ input: Input) -> Subscribers.Demand { inner.receive(input, index) }
    func receive(completion: Subscribers.Completion<Failure>) { inner.receive(completion, index) }
  }

  /// Makes one transition with the lock held; returns its action and, when the action ends the
  /// subscription, the subscriber it lets go of.
  private func transition(_ body: (inout Machine) -> Machine.Action) -> (
    Machine.Action, Downstream?
  ) {
    lock.lock()
    defer { lock.unlock() }
    let action = body(&machine)
    switch action {
    case .complete, .end: return (action, downstream.take())
    case .handOverSubscription: return (action, downstream)
    default: return (action, nil)
    }
  }

  /// Performs `action`, after unlocking (a tuple is delivered by its caller).
  private func perform(_ action: Machine.Action, _ subscriber: Downstream?) {
    switch action {
    case .none, .deliver: break
    case .cancel(let subscription): subscription.cancel()
    case .handOverSubscription: subscriber?.receive(subscription: self)
    case .request(let subscriptions, let demand):
      for subscription in subscriptions { subscription.request(demand) }
    case .complete(let completion, let cancelling, let dropped):
      // The values left in the queues are released after unlocking, with the rest.
      withExtendedLifetime(dropped) {}
      if let subscriber { delivery.withLock { subscriber.receive(completion: completion) } }
      for subscription in cancelling { subscription.cancel() }
    case .end(let cancelling, let dropped):
      for subscription in cancelling { subscription.cancel() }
      withExtendedLifetime((subscriber, dropped)) {}
    }
  }

  private func receive(_ subscription: any Subscription, _ index: Int) {
    let (action, subscriber) = transition { $0.receive(subscription, index: index) }
    perform(action, subscriber)
  }

  private func receive(_ input: Any, _ index: Int) -> Subscribers.Demand {
    let delivered = delivery.withLock {
      () -> (answered: Subscribers.Demand, raised: Subscribers.Demand, others: [any Subscription])?
      in
      lock.lock()
      let action = machine.receive(input, index: index)
      guard case .deliver(let values, let others) = action, let downstream else {
        lock.unlock()
        return nil
      }
      lock.unlock()
      let answered = downstream.receive(combine(values))
      let raised = lock.withLock { machine.delivered() }
      return (answered, raised, others)
    }
    guard let (answered, raised, others) = delivered else { return .none }
    // What downstream requested while delivering went to the others then.
    if answered > 0 { for other in others { other.request(answered) } }
    let (action, subscriber) = transition { $0.finishIfExhausted() }
    perform(action, subscriber)
    return answered + raised
  }

  private func receive(_ completion: Subscribers.Completion<Failure>, _ index: Int) {
    let (action, subscriber) = transition { $0.receive(completion, index: index) }
    perform(action, subscriber)
  }

  func request(_ demand: Subscribers.Demand) {
    require(demand > 0, "a subscriber must request at least one value, not \(demand)")
    let (action, subscriber) = transition { $0.request(demand) }
    perform(action, subscriber)
  }

  func cancel() {
    let (action, subscriber) = transition { $0.cancel() }
    perform(action, subscriber)
  }

  var description: String { "Zip" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
