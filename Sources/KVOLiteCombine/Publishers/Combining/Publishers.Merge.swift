import KVOLiteLocking

extension Publishers {
  /// A publisher that interleaves the values of several publishers of the same type.
  ///
  /// With unlimited demand, every upstream is asked for unlimited values. With limited demand,
  /// each upstream always has one value requested, or one value waiting for demand (a buffer of
  /// one per upstream, as Combine's).
  /// It finishes when every upstream has finished and fails (cancelling the others) when one
  /// fails.
  public struct MergeMany<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publishers merged, in subscription order.
    public let publishers: [Upstream]

    /// A publisher that merges the publishers of `publishers` (any sequence of them, as in
    /// Combine).
    public init<S: Swift.Sequence>(_ publishers: S) where S.Element == Upstream {
      self.publishers = Array(publishers)
    }

    /// A publisher that merges `publishers`.
    public init(_ publishers: Upstream...) {
      self.publishers = publishers
    }

    /// A publisher that merges these publishers and `other`, as Combine's.
    public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
      Publishers.MergeMany(publishers + [other])
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = MergeInner(downstream: subscriber, count: publishers.count)
      subscriber.receive(subscription: inner)
      for (index, publisher) in publishers.enumerated() { publisher.subscribe(inner.side(index)) }
    }
  }

  /// A publisher that interleaves the values of two publishers; see ``MergeMany``.
  public struct Merge<A: Publisher, B: Publisher>: Publisher
  where A.Output == B.Output, A.Failure == B.Failure {
    /// The kind of values this publisher publishes.
    public typealias Output = A.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = A.Failure

    /// The first publisher merged.
    public let a: A
    /// The second publisher merged.
    public let b: B

    /// A publisher that merges `a` and `b`.
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = MergeInner(downstream: subscriber, count: 2)
      subscriber.receive(subscription: inner)
      a.subscribe(inner.side(0))
      b.subscribe(inner.side(1))
    }
  }
}

extension Publisher {
  /// Interleaves the values of this publisher and `other`.
  ///
  ///     first.merge(with: second).sink { print($0) }
  ///     first.send(1); second.send(2); first.send(3)
  ///     // Prints: "1 2 3"
  public func merge<P: Publisher>(with other: P) -> Publishers.Merge<Self, P>
  where P.Output == Output, P.Failure == Failure {
    Publishers.Merge(self, other)
  }
}

/// The subscription of `merge` and `MergeMany`, with Combine's demand handling: with
/// unlimited demand every upstream is asked for everything; otherwise each upstream is asked
/// for one value at a time, and a value that arrives without demand waits in its upstream's
/// buffer for the next request. Deliveries are serialized by a recursive lock, under which the
/// state is checked too, so no value follows the completion; downstream is let go of when the
/// subscription ends.
final class MergeInner<Downstream: Subscriber>: Subscription, @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  /// Serializes calls to downstream: upstreams may send from several threads at once.
  private let delivery = RecursiveLock()
  private var upstreams: [(any Subscription)?]
  private var buffers: [Input?]
  private var finishedCount = 0
  private var demand = Subscribers.Demand.none

  init(downstream: Downstream, count: Int) {
    self.downstream = downstream
    upstreams = Array(repeating: nil, count: count)
    buffers = Array(repeating: nil, count: count)
  }

  func side(_ index: Int) -> Side { Side(index: index, inner: self) }

  struct Side: Subscriber {
    let index: Int
    let inner: MergeInner
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
    let demand = lock.withLock { () -> Subscribers.Demand? in
      guard downstream != nil, upstreams[index] == nil else { return nil }
      upstreams[index] = subscription
      return self.demand
    }
    guard let demand else { return subscription.cancel() }
    subscription.request(demand == .unlimited ? .unlimited : .max(1))
  }

  private func receive(_ input: Input, _ index: Int) -> Subscribers.Demand {
    delivery.withLock {
      lock.lock()
      guard let downstream else {
        lock.unlock()
        return .none
      }
      if demand == .unlimited {
        lock.unlock()
        _ = downstream.receive(input)
        return .none
      }
      guard demand > 0 else {
        buffers[index] = input
        lock.unlock()
        return .none
      }
      demand -= 1
      lock.unlock()
      let more = downstream.receive(input)
      lock.withLock { demand += more }
      return .max(1)
    }
  }

  /// Ends, with the lock held: the subscriber, to complete or release after unlocking, and
  /// what the buffers held.
  private func end() -> (downstream: Downstream?, buffered: [Input?]) {
    defer { buffers = buffers.map { _ in nil } }
    return (downstream.take(), buffers)
  }

  private func receive(completion: Subscribers.Completion<Failure>, _ index: Int) {
    let (ended, others) = lock.withLock {
      () -> ((downstream: Downstream?, buffered: [Input?])?, [any Subscription]) in
      guard downstream != nil else { return (nil, []) }
      switch completion {
      case .finished:
        finishedCount += 1
        upstreams[index] = nil
        guard finishedCount == upstreams.count, buffers.allSatisfy({ $0 == nil }) else {
          return (nil, [])
        }
        return (end(), [])
      case .failure:
        defer { upstreams = upstreams.map { _ in nil } }
        return (
          end(), upstreams.enumerated().compactMap { $0.offset == index ? nil : $0.element }
        )
      }
    }
    for other in others { other.cancel() }
    if let downstream = ended?.downstream {
      delivery.withLock { downstream.receive(completion: completion) }
    }
  }

  func request(_ newDemand: Subscribers.Demand) {
    let (freed, upstreams, finished) = delivery.withLock {
      () -> ([any Subscription], [any Subscription], Downstream?) in
      var freed: [any Subscription] = []
      lock.lock()
      guard let downstream else {
        lock.unlock()
        return ([], [], nil)
      }
      demand += newDemand
      // Deliver the waiting values first; each frees its upstream to send one more.
      while demand > 0, let index = buffers.firstIndex(where: { $0 != nil }) {
        let value = buffers[index]!
        buffers[index] = nil
        if demand != .unlimited { demand -= 1 }
        if let upstream = self.upstreams[index] { freed.append(upstream) }
        lock.unlock()
        let more = downstream.receive(value)
        lock.lock()
        demand += more
      }
      let upstreams = self.upstreams.compactMap { $0 }
      let finishNow =
        self.downstream != nil && finishedCount == self.upstreams.count
        && buffers.allSatisfy { $0 == nil }
      let finished = finishNow ? end().downstream : nil
      lock.unlock()
      finished?.receive(completion: .finished)
      return (freed, upstreams, finished)
    }
    _ = finished
    if newDemand == .unlimited {
      for upstream in upstreams { upstream.request(.unlimited) }
    } else {
      for upstream in freed { upstream.request(.max(1)) }
    }
  }

  func cancel() {
    let (upstreams, ended) = lock.withLock {
      defer { self.upstreams = self.upstreams.map { _ in nil } }
      return (self.upstreams, end())
    }
    for upstream in upstreams { upstream?.cancel() }
    withExtendedLifetime(ended) {}
  }
}

extension MergeInner: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
  /// "Merge", as Combine's subscription describes itself.
  var description: String { "Merge" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
