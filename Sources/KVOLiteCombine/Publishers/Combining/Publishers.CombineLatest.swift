import KVOLiteLocking

extension Publishers {
  /// A publisher that publishes a tuple of the latest values of two publishers whenever either
  /// publishes, once both have.
  ///
  /// Requests from downstream go to both upstreams. With limited demand, values arriving without
  /// demand only update the latest values (a buffer of one per upstream); the combination is
  /// sent when demand next arrives. It finishes when both upstreams have finished, and fails
  /// (cancelling the other) when either fails.
  public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
    /// The kind of values this publisher publishes.
    public typealias Output = (A.Output, B.Output)
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// The first publisher combined.
    public let a: A
    /// The second publisher combined.
    public let b: B

    /// A publisher that combines the latest values of `a` and `b`.
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = CombineLatestInner<A.Output, B.Output, S>(downstream: subscriber)
      a.subscribe(inner.side(0) { .first($0) })
      b.subscribe(inner.side(1) { .second($0) })
      subscriber.receive(subscription: inner)
    }
  }
}

extension Publisher {
  /// Publishes a tuple of the latest values of this publisher and `other` whenever either
  /// publishes, once both have.
  ///
  ///     first.combineLatest(second).sink { print($0) }
  ///     first.send(1); second.send(2); first.send(3)
  ///     // Prints: "(1, 2) (3, 2)"
  public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
  where P.Failure == Failure {
    Publishers.CombineLatest(self, other)
  }

  /// Combines the latest values of this publisher and `other` with `transform`.
  public func combineLatest<P: Publisher, T>(
    _ other: P, _ transform: @escaping (Output, P.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P.Failure == Failure {
    Publishers.CombineLatest(self, other).map(transform)
  }
}

/// A value from one side of a `combineLatest`.
private enum Either<First, Second> {
  case first(First)
  case second(Second)
}

private final class CombineLatestInner<First, Second, Downstream: Subscriber>: Subscription,
  @unchecked Sendable
where Downstream.Input == (First, Second) {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  /// Serializes calls to downstream: upstreams may send from several threads at once.
  private let delivery = RecursiveLock()
  private var upstreams: [(any Subscription)?] = [nil, nil]
  private var finished = [false, false]
  private var first: First?
  private var second: Second?
  private var demand = Subscribers.Demand.none
  /// A combination changed while there was no demand for it.
  private var pending = false
  private var isTerminated = false

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  func side<Input>(_ index: Int, _ wrap: @escaping (Input) -> Either<First, Second>) -> Side<Input>
  {
    Side(index: index, inner: self, wrap: wrap)
  }

  struct Side<Input>: Subscriber {
    let index: Int
    let inner: CombineLatestInner
    let wrap: (Input) -> Either<First, Second>
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) {
      inner.receive(subscription: subscription, index)
    }
    func receive(_ input: Input) -> Subscribers.Demand { inner.receive(wrap(input)) }
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
  /// the latest values of both.
  private func receive(_ value: Either<First, Second>) -> Subscribers.Demand {
    delivery.withLock {
      lock.lock()
      guard !isTerminated else { return lock.unlock() }
      switch value {
      case .first(let value): first = value
      case .second(let value): second = value
      }
      emitIfPossible()
    }
    return .none
  }

  /// With `delivery` and the lock held: sends the combination if there is one and demand for
  /// it; unlocks the lock (`delivery` stays held).
  private func emitIfPossible() {
    guard let first, let second, let downstream else { return lock.unlock() }
    guard demand > 0 else {
      pending = true
      return lock.unlock()
    }
    pending = false
    demand -= 1
    lock.unlock()
    let more = downstream.receive((first, second))
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
        defer { upstreams = [nil, nil] }
        return (end(), upstreams.enumerated().compactMap { $0.offset == index ? nil : $0.element })
      }
    }
    for other in others { other.cancel() }
    if let downstream = ended?.downstream {
      delivery.withLock { downstream.receive(completion: completion) }
    }
  }

  /// What the subscription lets go of when it ends, to complete or release after unlocking.
  private typealias Ended = (downstream: Downstream?, first: First?, second: Second?)

  /// Ends, with the lock held.
  private func end() -> Ended {
    isTerminated = true
    return (downstream.take(), first.take(), second.take())
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
    let (upstreams, ended) = lock.withLock {
      defer { self.upstreams = [nil, nil] }
      return (self.upstreams, end())
    }
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
