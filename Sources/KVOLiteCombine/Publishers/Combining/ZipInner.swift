import KVOLiteLocking

/// The subscription of `zip` over any number of upstreams, whose values are kept type-erased
/// in one queue per upstream and combined by `combine` (which knows their types).
///
/// As Combine's: downstream is handed the subscription once every upstream has subscribed;
/// downstream's demand is asked of every upstream, except that while a tuple is being
/// delivered, what downstream requests (from inside `receive` or from another thread) goes back
/// to the upstream whose value completed the tuple as that value's `receive` result, with the
/// demand downstream answers (which the other upstreams are asked for); a tuple goes out as
/// soon as every queue has a value; it finishes when an upstream has finished and its queue
/// is empty (no more tuples are possible), cancelling the others, and fails at the first
/// failure, then cancels every upstream (the failed one too). Deliveries are serialized by a recursive lock, under which each tuple is also made,
/// so tuples reach downstream in order and none follows the completion; nothing is called with
/// `lock` held. Downstream is let go of when the subscription ends.
final class ZipInner<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Downstream.Failure

  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  private let combine: ([Any]) -> Downstream.Input
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var subscriptions: [(any Subscription)?]
  private var queues: [FIFO<Any>]
  private var finished: [Bool]
  private var subscribedCount = 0
  /// The upstream whose value completed the tuple being delivered, and what downstream has
  /// requested meanwhile.
  private var delivering: Int?
  private var raisedWhileDelivering = Subscribers.Demand.none

  init(downstream: Downstream, count: Int, combine: @escaping ([Any]) -> Downstream.Input) {
    self.downstream = downstream
    self.combine = combine
    subscriptions = Array(repeating: nil, count: count)
    queues = Array(repeating: FIFO(), count: count)
    finished = Array(repeating: false, count: count)
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

  private func receive(_ subscription: any Subscription, _ index: Int) {
    lock.lock()
    guard let downstream, subscriptions[index] == nil else {
      lock.unlock()
      return subscription.cancel()
    }
    subscriptions[index] = subscription
    subscribedCount += 1
    let all = subscribedCount == subscriptions.count
    lock.unlock()
    if all { downstream.receive(subscription: self) }
  }

  private func receive(_ input: Any, _ index: Int) -> Subscribers.Demand {
    let (answered, raised, others) = delivery.withLock {
      () -> (Subscribers.Demand, Subscribers.Demand, [any Subscription]) in
      lock.lock()
      guard let downstream else {
        lock.unlock()
        return (.none, .none, [])
      }
      queues[index].append(input)
      guard queues.allSatisfy({ !$0.isEmpty }) else {
        lock.unlock()
        return (.none, .none, [])
      }
      let values = queues.indices.map { queues[$0].removeFirst() }
      let others = subscriptions.enumerated().compactMap { $0.offset == index ? nil : $0.element }
      delivering = index
      lock.unlock()
      let answered = downstream.receive(combine(values))
      let raised = lock.withLock { () -> Subscribers.Demand in
        defer {
          delivering = nil
          raisedWhileDelivering = .none
        }
        return raisedWhileDelivering
      }
      return (answered, raised, others)
    }
    // What downstream requested while delivering went to the others then.
    if answered > 0 { for other in others { other.request(answered) } }
    finishIfExhausted()
    return answered + raised
  }

  private func receive(_ completion: Subscribers.Completion<Failure>, _ index: Int) {
    guard case .failure = completion else {
      lock.withLock { finished[index] = true }
      return finishIfExhausted()
    }
    let ended = lock.withLock { () -> (Downstream, [any Subscription])? in
      guard let downstream = downstream.take() else { return nil }
      defer { subscriptions = subscriptions.map { _ in nil } }
      // As Combine's: every upstream is cancelled, the one that failed too.
      return (downstream, subscriptions.compactMap { $0 })
    }
    guard let (downstream, others) = ended else { return }
    delivery.withLock { downstream.receive(completion: completion) }
    for other in others { other.cancel() }
  }

  /// Finishes if an upstream has finished with nothing left in its queue.
  private func finishIfExhausted() {
    let ended = lock.withLock { () -> (Downstream, [any Subscription], [FIFO<Any>])? in
      guard downstream != nil,
        queues.indices.contains(where: { finished[$0] && queues[$0].isEmpty })
      else { return nil }
      let others = subscriptions.indices.compactMap { finished[$0] ? nil : subscriptions[$0] }
      defer {
        subscriptions = subscriptions.map { _ in nil }
        queues = queues.map { _ in FIFO() }
      }
      // The values left in the queues are released after unlocking, with the rest.
      return (downstream.take()!, others, queues)
    }
    guard let (downstream, others, _) = ended else { return }
    delivery.withLock { downstream.receive(completion: .finished) }
    for other in others { other.cancel() }
  }

  func request(_ demand: Subscribers.Demand) {
    require(demand > 0, "a subscriber must request at least one value, not \(demand)")
    let targets = lock.withLock { () -> [any Subscription] in
      guard downstream != nil else { return [] }
      guard let delivering else { return subscriptions.compactMap { $0 } }
      raisedWhileDelivering += demand
      return subscriptions.enumerated().compactMap { $0.offset == delivering ? nil : $0.element }
    }
    for target in targets { target.request(demand) }
  }

  func cancel() {
    let (targets, downstream, queues) = lock.withLock {
      () -> ([any Subscription], Downstream?, [FIFO<Any>]) in
      defer {
        subscriptions = subscriptions.map { _ in nil }
        self.queues = self.queues.map { _ in FIFO() }
      }
      return (subscriptions.compactMap { $0 }, self.downstream.take(), self.queues)
    }
    for target in targets { target.cancel() }
    withExtendedLifetime((downstream, queues)) {}
  }

  var description: String { "Zip" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
