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
      let inner = SequenceSubscription(
        downstream: subscriber, sequence: sequence, completion: .finished,
        endedDescription: "Sequence", reflectsCompletion: false)
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

extension Sequence {
  /// A publisher of this sequence's elements: `[1, 2, 3].publisher`.
  public var publisher: Publishers.Sequence<Self, Never> {
    Publishers.Sequence(sequence: self)
  }
}
