/// The subscription of `zip` over any number of upstreams, whose values are kept type-erased
/// in one queue per upstream and combined by `combine` (which knows their types).
///
/// As Combine's: downstream is handed the subscription once every upstream has subscribed;
/// downstream's demand is asked of every upstream (the demand answered while a value is being
/// delivered goes back to that value's upstream as its `receive` result); a tuple goes out as
/// soon as every queue has a value; it finishes when an upstream has finished and its queue
/// is empty (no more tuples are possible), cancelling the others, and fails at the first
/// failure. Deliveries are serialized by a recursive lock; nothing is called with `lock` held.
final class ZipInner<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  CustomReflectable,
  CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Downstream.Failure

  private let downstream: Downstream
  private let combine: ([Any]) -> Downstream.Input
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var subscriptions: [(any Subscription)?]
  private var queues: [[Any]]
  private var finished: [Bool]
  private var subscribedCount = 0
  private var ended = false

  init(downstream: Downstream, count: Int, combine: @escaping ([Any]) -> Downstream.Input) {
    self.downstream = downstream
    self.combine = combine
    subscriptions = Array(repeating: nil, count: count)
    queues = Array(repeating: [], count: count)
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
    let (accepted, all) = lock.withLock { () -> (Bool, Bool) in
      guard !ended, subscriptions[index] == nil else { return (false, false) }
      subscriptions[index] = subscription
      subscribedCount += 1
      return (true, subscribedCount == subscriptions.count)
    }
    guard accepted else { return subscription.cancel() }
    if all { downstream.receive(subscription: self) }
  }

  private func receive(_ input: Any, _ index: Int) -> Subscribers.Demand {
    lock.lock()
    guard !ended else {
      lock.unlock()
      return .none
    }
    queues[index].append(input)
    guard queues.allSatisfy({ !$0.isEmpty }) else {
      lock.unlock()
      return .none
    }
    let values = queues.indices.map { queues[$0].removeFirst() }
    let others = subscriptions.enumerated().compactMap { $0.offset == index ? nil : $0.element }
    lock.unlock()
    let more = delivery.withLock { downstream.receive(combine(values)) }
    if more > 0 { for other in others { other.request(more) } }
    finishIfExhausted()
    return more
  }

  private func receive(_ completion: Subscribers.Completion<Failure>, _ index: Int) {
    guard case .failure = completion else {
      lock.withLock { finished[index] = true }
      return finishIfExhausted()
    }
    let others = lock.withLock { () -> [any Subscription]? in
      guard !ended else { return nil }
      ended = true
      defer { subscriptions = subscriptions.map { _ in nil } }
      return subscriptions.enumerated().compactMap { $0.offset == index ? nil : $0.element }
    }
    guard let others else { return }
    delivery.withLock { downstream.receive(completion: completion) }
    for other in others { other.cancel() }
  }

  /// Finishes if an upstream has finished with nothing left in its queue.
  private func finishIfExhausted() {
    let others = lock.withLock { () -> [any Subscription]? in
      guard !ended, queues.indices.contains(where: { finished[$0] && queues[$0].isEmpty }) else {
        return nil
      }
      ended = true
      defer { subscriptions = subscriptions.map { _ in nil } }
      return subscriptions.indices.compactMap { finished[$0] ? nil : subscriptions[$0] }
    }
    guard let others else { return }
    delivery.withLock { downstream.receive(completion: .finished) }
    for other in others { other.cancel() }
  }

  func request(_ demand: Subscribers.Demand) {
    precondition(demand > 0, "a subscriber must request at least one value, not \(demand)")
    let targets = lock.withLock { ended ? [] : subscriptions.compactMap { $0 } }
    for target in targets { target.request(demand) }
  }

  func cancel() {
    let targets = lock.withLock { () -> [any Subscription] in
      ended = true
      defer { subscriptions = subscriptions.map { _ in nil } }
      return subscriptions.compactMap { $0 }
    }
    for target in targets { target.cancel() }
  }

  var description: String { "Zip" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
