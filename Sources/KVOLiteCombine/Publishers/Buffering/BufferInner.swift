import KVOLiteLocking

/// The subscription of ``Publishers/Buffer``.
///
/// One state behind one lock. Values leave through ``drain()``, one drain at a time: a drain
/// started while another is delivering (re-entrantly, or from another thread) leaves the work
/// to the running one, which loops until nothing is left to deliver, so values keep their order.
/// Downstream is let go of once it has its completion, or on cancel.
final class BufferInner<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  /// The subscriber, until it has its completion or cancels.
  private var downstream: Downstream?
  private let size: Int
  private let prefetch: Publishers.PrefetchStrategy
  private let whenFull: Publishers.BufferingStrategy<Failure>
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var demand = Subscribers.Demand.none
  /// The values held, oldest first (a queue: dropping the oldest or delivering one at a time
  /// takes constant time, not time proportional to the size).
  private var values = FIFO<Input>()
  private var terminal: Subscribers.Completion<Failure>?
  private var draining = false
  /// The threads running the `customError` closure, which Combine calls holding its lock.
  private var makingError = CallingThreads()

  init(
    downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy,
    whenFull: Publishers.BufferingStrategy<Failure>
  ) {
    self.downstream = downstream
    self.size = size
    self.prefetch = prefetch
    self.whenFull = whenFull
  }

  func receive(subscription: any Subscription) {
    guard let downstream = lock.withLock({ status.accept(subscription) ? downstream : nil }) else {
      return subscription.cancel()
    }
    switch prefetch {
    case .keepFull: if size > 0 { subscription.request(.max(size)) }
    case .byRequest: subscription.request(.unlimited)
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    trapIfMakingError()
    guard case .subscribed(let subscription) = status, !hasFailed else {
      lock.unlock()
      return .none
    }
    var dropped: Input?  // Released after unlocking.
    defer { _ = dropped }
    if values.count >= size {
      switch whenFull {
      case .dropNewest:
        lock.unlock()
        return drain()
      case .dropOldest:
        if !values.isEmpty { dropped = values.removeFirst() }
      case .customError(let makeError):
        // As Combine's: the failure waits for the next drain (downstream's next request).
        makingError.enter()
        lock.unlock()
        let error = makeError()
        lock.withLock {
          makingError.leave()
          terminal = .failure(error)
        }
        subscription.cancel()
        return .none
      }
    }
    if size > 0 { values.append(input) }
    lock.unlock()
    return drain()
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let accepted = lock.withLock { () -> Bool in
      trapIfMakingError()
      guard status.isSubscribed, terminal == nil else { return false }
      terminal = completion
      return true
    }
    if accepted { _ = drain() }
  }

  /// With the lock held: traps on an event from upstream sent from inside the `customError`
  /// closure, where Combine, which calls it holding its lock, traps taking the lock again.
  private func trapIfMakingError() {
    guard makingError.containsCurrent else { return }
    fatalError("buffer received an event from inside its customError closure")
  }

  func request(_ newDemand: Subscribers.Demand) {
    let subscription = lock.withLock { () -> (any Subscription)? in
      guard let subscription = status.subscription else { return nil }
      demand += newDemand
      return subscription
    }
    guard let subscription else { return }
    let more = drain()
    if more > 0 { subscription.request(more) }
  }

  func cancel() {
    let (subscription, dropped) = lock.withLock {
      () -> ((any Subscription)?, (Downstream?, FIFO<Input>)) in
      guard let subscription = status.subscription else { return (nil, (nil, FIFO())) }
      status = .terminal
      defer { values = FIFO() }
      return (subscription, (downstream.take(), values))
    }
    withExtendedLifetime(dropped) {}
    subscription?.cancel()
  }

  /// Whether upstream failed or the buffer overflowed into a failure. Call with `lock` held.
  private var hasFailed: Bool {
    if case .failure? = terminal { return true }
    return false
  }

  /// Delivers what downstream's demand allows, and a completion when it is due; returns how
  /// many more values to ask upstream for (one per value delivered, when keeping full).
  private func drain() -> Subscribers.Demand {
    var upstreamDemand = Subscribers.Demand.none
    lock.lock()
    guard !draining else {
      lock.unlock()
      return .none
    }
    while status.isSubscribed, let downstream {
      if demand == .none || values.isEmpty {
        // A failure goes out at once; a finish once the buffer is empty and there is demand.
        let due: Bool
        switch terminal {
        case .failure?: due = true
        case .finished?: due = demand > 0 && values.isEmpty
        case nil: due = false
        }
        guard due, let completion = terminal else { break }
        status = .terminal
        let dropped = values
        values = FIFO()
        self.downstream = nil
        lock.unlock()
        withExtendedLifetime(dropped) {}
        downstream.receive(completion: completion)
        return upstreamDemand
      }
      let count = demand.max.map { min($0, values.count) } ?? values.count
      let batch = values.removeFirst(count)
      demand -= count
      draining = true
      lock.unlock()
      var more = Subscribers.Demand.none
      for value in batch { more += downstream.receive(value) }
      if prefetch == .keepFull { upstreamDemand += count }
      lock.lock()
      draining = false
      demand += more
    }
    lock.unlock()
    return upstreamDemand
  }

  var description: String { "Buffer" }
  var customMirror: Mirror {
    let (values, status, demand, terminal) = lock.withLock {
      (self.values, self.status, self.demand, self.terminal)
    }
    return Mirror(
      self,
      children: [
        ("values", values.elements), ("state", status), ("downstreamDemand", demand),
        ("terminal", terminal as Any),
      ])
  }
  var playgroundDescription: Any { description }
}
