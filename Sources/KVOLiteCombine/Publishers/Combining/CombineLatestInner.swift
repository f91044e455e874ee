import KVOLiteLocking

/// The subscription of `combineLatest` over any number of upstreams, whose latest values are
/// kept type-erased and combined by `combine` (which knows their types).
///
/// Requests from downstream go to every upstream. With limited demand, values arriving
/// without demand only update the latest values (a buffer of one per upstream); the
/// combination is sent when demand next arrives. It finishes when every upstream has finished,
/// and fails (cancelling the others) when one fails. Deliveries are serialized by a recursive
/// lock, under which each combination is also made, so combinations reach downstream in the
/// order they were made; nothing is called with `lock` held. Downstream and the latest values
/// are let go of when the subscription ends.
final class CombineLatestInner<Downstream: Subscriber>: Subscription, @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  private let combine: ([Any]) -> Downstream.Input
  /// Serializes calls to downstream: upstreams may send from several threads at once.
  private let delivery = RecursiveLock()
  private var upstreams: [(any Subscription)?]
  private var finished: [Bool]
  private var latest: [Any?]
  private var demand = Subscribers.Demand.none
  /// A combination changed while there was no demand for it.
  private var pending = false
  private var isTerminated = false

  init(downstream: Downstream, count: Int, combine: @escaping ([Any]) -> Downstream.Input) {
    self.downstream = downstream
    self.combine = combine
    upstreams = Array(repeating: nil, count: count)
    finished = Array(repeating: false, count: count)
    latest = Array(repeating: nil, count: count)
  }

  /// The subscriber for upstream `index`.
  func side<Input>(_ index: Int, _ type: Input.Type = Input.self) -> Side<Input> {
    Side(index: index, inner: self)
  }

  /// What `combineLatest` subscribes to one upstream.
  struct Side<Input>: Subscriber {
    let index: Int
    let inner: CombineLatestInner
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) {
      inner.receive(subscription: subscription, index)
    }
    func receive(_ input: Input) -> Subscribers.Demand { inner.receive(input, index) }
    func receive(completion: Subscribers.Completion<Failure>) {
      inner.receive(completion: completion, index)
    }
  }

  private func receive(subscription: any Subscription, _ index: Int) {
    let (accepted, demand) = lock.withLock { () -> (Bool, Subscribers.Demand) in
      guard !isTerminated, upstreams[index] == nil else { return (false, .none) }
      upstreams[index] = subscription
      return (true, self.demand)
    }
    guard accepted else { return subscription.cancel() }
    if demand > 0 { subscription.request(demand) }
  }

  /// Stores `value` and sends the new combination if there is demand for it. The store and the
  /// send happen with `delivery` held, so that combinations reach downstream in the order they
  /// were made: with upstreams sending from several threads, the last combination delivered is
  /// the latest values of all.
  private func receive(_ value: Any, _ index: Int) -> Subscribers.Demand {
    delivery.withLock {
      lock.lock()
      guard !isTerminated else { return lock.unlock() }
      latest[index] = value
      emitIfPossible()
    }
    return .none
  }

  /// With `delivery` and the lock held: sends the combination if there is one and demand for
  /// it; unlocks the lock (`delivery` stays held).
  private func emitIfPossible() {
    let values = latest.compactMap { $0 }
    guard values.count == latest.count, let downstream else { return lock.unlock() }
    guard demand > 0 else {
      pending = true
      return lock.unlock()
    }
    pending = false
    demand -= 1
    lock.unlock()
    let more = downstream.receive(combine(values))
    lock.withLock { demand += more }
  }

  private func receive(completion: Subscribers.Completion<Failure>, _ index: Int) {
    let (ended, others) = lock.withLock { () -> (Ended?, [any Subscription]) in
      guard !isTerminated else { return (nil, []) }
      switch completion {
      case .finished:
        finished[index] = true
        upstreams[index] = nil
        guard finished.allSatisfy({ $0 }) else { return (nil, []) }
        return (end(), [])
      case .failure:
        let others = upstreams.enumerated().compactMap { $0.offset == index ? nil : $0.element }
        return (end(), others)
      }
    }
    for other in others { other.cancel() }
    if let downstream = ended?.downstream {
      delivery.withLock { downstream.receive(completion: completion) }
    }
  }

  /// What the subscription lets go of when it ends, to complete or release after unlocking.
  private typealias Ended = (downstream: Downstream?, latest: [Any?], upstreams: [Any?])

  /// Ends, with the lock held.
  private func end() -> Ended {
    isTerminated = true
    let count = latest.count
    defer {
      latest = Array(repeating: nil, count: count)
      upstreams = Array(repeating: nil, count: count)
    }
    return (downstream.take(), latest, upstreams)
  }

  func request(_ newDemand: Subscribers.Demand) {
    let upstreams = delivery.withLock { () -> [(any Subscription)?] in
      lock.lock()
      guard !isTerminated else {
        lock.unlock()
        return []
      }
      demand += newDemand
      let upstreams = self.upstreams
      if pending {
        emitIfPossible()
      } else {
        lock.unlock()
      }
      return upstreams
    }
    for upstream in upstreams { upstream?.request(newDemand) }
  }

  func cancel() {
    let (upstreams, ended) = lock.withLock { (self.upstreams, end()) }
    for upstream in upstreams { upstream?.cancel() }
    withExtendedLifetime(ended) {}
  }
}

extension CombineLatestInner: CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  /// "CombineLatest", as Combine's subscription describes itself.
  var description: String { "CombineLatest" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
