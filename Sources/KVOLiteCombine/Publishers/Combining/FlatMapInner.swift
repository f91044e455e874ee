import KVOLiteLocking

/// The subscription of `flatMap`: one state behind `lock`; deliveries to downstream are
/// serialized by `delivery` (a recursive lock, so that downstream may request from inside its
/// `receive`). Nothing is called with `lock` held. Downstream and the transform are let go of
/// when the subscription ends; as in Combine, a child's value that comes after the end is
/// still handed on, within the demand, to a subscriber that is alive (see
/// ``EndingDownstream``).
final class FlatMapInner<Input, Child: Publisher, Downstream: Subscriber>: Subscriber,
  Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Child.Output, Downstream.Failure == Child.Failure {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Child.Failure

  /// The subscriber, until the subscription ends.
  private var downstream: EndingDownstream<Downstream>
  private let maxPublishers: Subscribers.Demand
  /// Makes a child from an upstream value; let go of when the subscription ends.
  private var transform: ((Input) -> Child)?
  private let lock = Lock()
  private let delivery = RecursiveLock()
  private var outer: (any Subscription)?
  private var outerFinished = false
  private var children: [Int: any Subscription] = [:]
  private var nextIndex = 0
  private var pendingChildren = 0
  private var demand = Subscribers.Demand.none
  /// Values from children that found no demand, in arrival order.
  private var buffer: [(index: Int, value: Child.Output)] = []
  /// Downstream's `receive` is running: a request from inside it only adds demand.
  private var inDownstream = false
  /// A child is being asked for one more value from `request`: what it sends at once waits.
  private var askingChild = false
  private var ended = false
  /// The threads cancelling the children because upstream failed.
  private var cancellingChildren = CallingThreads()

  init(
    downstream: Downstream, maxPublishers: Subscribers.Demand, transform: @escaping (Input) -> Child
  ) {
    self.downstream = EndingDownstream(downstream)
    self.maxPublishers = maxPublishers
    self.transform = transform
  }

  // MARK: Downstream

  func request(_ newDemand: Subscribers.Demand) {
    require(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    lock.lock()
    if inDownstream {
      demand += newDemand
      return lock.unlock()
    }
    guard !ended else { return lock.unlock() }
    if newDemand == .unlimited {
      demand = .unlimited
      let waiting = buffer
      buffer = []
      let subscriptions = Array(children.values)
      lock.unlock()
      for (_, value) in waiting { _ = deliver(value) }
      for subscription in subscriptions { subscription.request(.unlimited) }
      lock.lock()
    } else {
      demand += newDemand
      while !buffer.isEmpty, demand > 0 {
        let (index, value) = buffer.removeFirst()
        demand -= 1
        let child = children[index]
        lock.unlock()
        let more = deliver(value)
        lock.lock()
        demand += more
        askingChild = true
        lock.unlock()
        child?.request(.max(1))
        lock.lock()
        askingChild = false
      }
    }
    finishIfDone()
  }

  func cancel() {
    let (subscriptions, outer, released) = lock.withLock {
      () -> ([any Subscription], (any Subscription)?, Ended?) in
      guard !ended else { return ([], nil, nil) }
      defer { children = [:] }
      return (Array(children.values), self.outer.take(), end())
    }
    for subscription in subscriptions { subscription.cancel() }
    outer?.cancel()
    withExtendedLifetime(released) {}
  }

  /// What the subscription lets go of when it ends, to complete or release after unlocking.
  private typealias Ended = (
    downstream: Downstream?, transform: ((Input) -> Child)?,
    buffered: [(index: Int, value: Child.Output)]
  )

  /// Ends, with the lock held.
  private func end() -> Ended {
    ended = true
    defer { buffer = [] }
    return (downstream.end(), transform.take(), buffer)
  }

  /// Sends one value downstream, unless the subscription has ended; returns the demand it
  /// answers with.
  private func deliver(_ value: Child.Output) -> Subscribers.Demand {
    delivery.withLock {
      lock.lock()
      guard let downstream = downstream.reachable else {
        lock.unlock()
        return .none
      }
      inDownstream = true
      lock.unlock()
      let more = downstream.receive(value)
      lock.withLock { inDownstream = false }
      return more
    }
  }

  private func send(_ completion: Subscribers.Completion<Failure>, to ended: Ended) {
    guard let downstream = ended.downstream else { return }
    delivery.withLock { downstream.receive(completion: completion) }
  }

  /// Finishes downstream if upstream and every child have finished and nothing waits; called
  /// with `lock` held, returns with it released. Returns whether it finished.
  @discardableResult
  private func finishIfDone() -> Bool {
    guard !ended, outerFinished, buffer.isEmpty, children.isEmpty, pendingChildren == 0 else {
      lock.unlock()
      return false
    }
    let ended = end()
    lock.unlock()
    send(.finished, to: ended)
    return true
  }

  // MARK: Upstream

  // This object is also what `flatMap` subscribes to upstream, as in Combine.

  func receive(subscription: any Subscription) { receiveOuter(subscription) }
  func receive(_ input: Input) -> Subscribers.Demand { receiveOuter(input) }
  func receive(completion: Subscribers.Completion<Failure>) { receiveOuter(completion) }

  private func receiveOuter(_ subscription: any Subscription) {
    let accepted = lock.withLock { () -> Bool in
      guard outer == nil, !ended else { return false }
      outer = subscription
      return true
    }
    guard accepted else { return subscription.cancel() }
    subscription.request(maxPublishers)
  }

  private func receiveOuter(_ input: Input) -> Subscribers.Demand {
    guard let transform = lock.withLock({ ended ? nil : transform }) else { return .none }
    let child = transform(input)
    let index = lock.withLock { () -> Int in
      defer { nextIndex += 1 }
      pendingChildren += 1
      return nextIndex
    }
    child.subscribe(ChildSide(index: index, inner: self))
    return .none
  }

  private func receiveOuter(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard !cancellingChildren.containsCurrent else {
      lock.unlock()
      fatalError(
        "FlatMap received a completion from upstream while cancelling its publishers after "
          + "upstream's failure (Combine traps too)")
    }
    outer = nil
    outerFinished = true
    guard case .failure = completion else {
      finishIfDone()
      return
    }
    fail(completion, sparing: nil, upstreamFailed: true)
  }

  /// Ends with a failure, cancelling every child but `spared`; called with `lock` held,
  /// returns with it released. While it cancels the children after upstream's failure, a
  /// completion from upstream on the same thread traps (see `receiveOuter`).
  private func fail(
    _ completion: Subscribers.Completion<Failure>, sparing spared: Int?,
    upstreamFailed: Bool = false
  ) {
    guard !ended else { return lock.unlock() }
    let ended = end()
    let subscriptions = children.filter { $0.key != spared }.map(\.value)
    let children = self.children
    self.children = [:]
    if upstreamFailed { cancellingChildren.enter() }
    lock.unlock()
    for subscription in subscriptions { subscription.cancel() }
    if upstreamFailed { lock.withLock { cancellingChildren.leave() } }
    send(completion, to: ended)
    _ = children
  }

  // MARK: Children

  /// What `flatMap` subscribes to each child publisher: described as "FlatMap", with the
  /// subscription's identifier in its mirror, as Combine's.
  struct ChildSide: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
  {
    let index: Int
    let inner: FlatMapInner
    let combineIdentifier = CombineIdentifier()

    var description: String { "FlatMap" }
    var customMirror: Mirror {
      Mirror(self, children: [("parentSubscription", inner.combineIdentifier)])
    }
    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) { inner.receiveChild(subscription, index) }
    func receive(_ input: Child.Output) -> Subscribers.Demand { inner.receiveChild(input, index) }
    func receive(completion: Subscribers.Completion<Failure>) {
      inner.receiveChild(completion, index)
    }
  }

  private func receiveChild(_ subscription: any Subscription, _ index: Int) {
    let first = lock.withLock { () -> Subscribers.Demand? in
      pendingChildren -= 1
      guard !ended else { return nil }
      children[index] = subscription
      return demand == .unlimited ? .unlimited : .max(1)
    }
    guard let first else { return subscription.cancel() }
    subscription.request(first)
  }

  private func receiveChild(_ value: Child.Output, _ index: Int) -> Subscribers.Demand {
    // As in Combine, a child's value counts whatever the state: after the end, it still reaches
    // a subscriber that is alive (see `EndingDownstream`).
    lock.lock()
    if demand == .unlimited {
      lock.unlock()
      _ = deliver(value)
      return .none
    }
    if demand == .none || askingChild {
      buffer.append((index, value))
      lock.unlock()
      return .none
    }
    demand -= 1
    lock.unlock()
    let more = deliver(value)
    if more > 0 { lock.withLock { demand += more } }
    return .max(1)
  }

  private func receiveChild(_ completion: Subscribers.Completion<Failure>, _ index: Int) {
    lock.lock()
    guard case .finished = completion else { return fail(completion, sparing: index) }
    children[index] = nil
    guard !finishIfDone(), maxPublishers != .unlimited else { return }
    lock.withLock { outer }?.request(.max(1))
  }

  var description: String { "FlatMap" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
