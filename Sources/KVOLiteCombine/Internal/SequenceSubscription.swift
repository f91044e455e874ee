import KVOLiteLocking

/// The subscription of ``Publishers/Sequence`` and ``Record``: the elements of a sequence,
/// within the subscriber's demand, then a completion.
///
/// It describes itself as the sequence does (`[1, 2, 3]`) while it lasts, and as
/// `endedDescription` ("Sequence", "Cancelled Events") once it has ended; its mirror shows the
/// sequence (empty once ended) and, for `Record`, the completion. A request for `.none` adds
/// nothing, as in Combine. A subscriber may request more from inside `receive` (the values come
/// after it returns, without deeper recursion). The iterator is advanced with the lock held (it
/// is the sequence's own code, which must not call back into the subscription); values are
/// delivered outside it. The last value is followed by the completion at once.
final class SequenceSubscription<Downstream: Subscriber, Elements: Sequence>: Subscription,
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
  private let completion: Subscribers.Completion<Downstream.Failure>
  private let endedDescription: String
  private let reflectsCompletion: Bool

  init(
    downstream: Downstream, sequence: Elements,
    completion: Subscribers.Completion<Downstream.Failure>, endedDescription: String,
    reflectsCompletion: Bool
  ) {
    self.sequence = sequence
    self.downstream = downstream
    self.completion = completion
    self.endedDescription = endedDescription
    self.reflectsCompletion = reflectsCompletion
    iterator = sequence.makeIterator()
    next = iterator.next()
  }

  var isExhausted: Bool { lock.withLock { next == nil } }

  func request(_ newDemand: Subscribers.Demand) {
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
    downstream.receive(completion: completion)
  }

  func cancel() {
    let (downstream, sequence) = lock.withLock { (self.downstream.take(), self.sequence.take()) }
    withExtendedLifetime((downstream, sequence)) {}
  }

  var description: String {
    lock.withLock { sequence }.map { String(describing: $0) } ?? endedDescription
  }
  var customMirror: Mirror {
    let sequence: Any = lock.withLock { self.sequence } ?? [Elements.Element]()
    return Mirror(
      self,
      children: reflectsCompletion
        ? [("sequence", sequence), ("completion", completion)] : [("sequence", sequence)])
  }
  var playgroundDescription: Any { description }
}
