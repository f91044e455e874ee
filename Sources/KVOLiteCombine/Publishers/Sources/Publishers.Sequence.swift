import KVOLiteLocking

extension Publishers {
  /// A publisher of the elements of a sequence, within each subscriber's demand, then
  /// `.finished`.
  ///
  /// Each subscriber iterates the sequence afresh. An empty sequence hands the subscriber
  /// ``Subscriptions/empty`` and finishes at once. The subscription describes itself as the
  /// sequence does (`[1, 2, 3]`), or "Sequence" once it has ended; a subscriber may request more
  /// from inside `receive` (the values come after it returns, without deeper recursion).
  public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Elements.Element

    /// The elements published.
    public let sequence: Elements

    /// A publisher of `sequence`'s elements.
    public init(sequence: Elements) {
      self.sequence = sequence
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = SequenceSubscription(downstream: subscriber, sequence: sequence)
      if inner.isExhausted {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
        inner.cancel()
      } else {
        subscriber.receive(subscription: inner)
      }
    }
  }
}

extension Publishers.Sequence: Equatable where Elements: Equatable {}

/// The subscription of ``Publishers/Sequence``. The iterator is advanced with the lock held
/// (it is the sequence's own code, which must not call back into the subscription); values are
/// delivered outside it.
private final class SequenceSubscription<Downstream: Subscriber, Elements: Sequence>: Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Input == Elements.Element {
  // @unchecked: the mutable state is behind `lock`.
  private let lock = Lock()
  private var sequence: Elements?
  private var downstream: Downstream?
  private var iterator: Elements.Iterator
  /// The element to send next, read ahead so that the end is known before it is asked for.
  private var next: Elements.Element?
  private var demand = Subscribers.Demand.none
  /// Whether a delivery is under way (a request from inside it only adds demand).
  private var delivering = false

  init(downstream: Downstream, sequence: Elements) {
    self.sequence = sequence
    self.downstream = downstream
    iterator = sequence.makeIterator()
    next = iterator.next()
  }

  var isExhausted: Bool { lock.withLock { next == nil } }

  func request(_ newDemand: Subscribers.Demand) {
    precondition(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    lock.lock()
    guard downstream != nil else { return lock.unlock() }
    demand += newDemand
    guard !delivering else { return lock.unlock() }
    delivering = true
    while let downstream, demand > 0, let current = next {
      demand -= 1
      next = iterator.next()
      lock.unlock()
      let more = downstream.receive(current)
      lock.lock()
      demand += more
    }
    delivering = false
    guard next == nil, let downstream = downstream.take() else { return lock.unlock() }
    let ended = sequence.take()
    lock.unlock()
    withExtendedLifetime(ended) {}
    downstream.receive(completion: .finished)
  }

  func cancel() {
    let (downstream, sequence) = lock.withLock { (self.downstream.take(), self.sequence.take()) }
    withExtendedLifetime((downstream, sequence)) {}
  }

  var description: String {
    lock.withLock { sequence }.map { String(describing: $0) } ?? "Sequence"
  }
  var customMirror: Mirror {
    Mirror(self, children: [("sequence", lock.withLock { sequence } as Any)])
  }
  var playgroundDescription: Any { description }
}

extension Sequence {
  /// A publisher of this sequence's elements: `[1, 2, 3].publisher`.
  public var publisher: Publishers.Sequence<Self, Never> {
    Publishers.Sequence(sequence: self)
  }
}
