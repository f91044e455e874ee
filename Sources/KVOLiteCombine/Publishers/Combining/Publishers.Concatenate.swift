import KVOLiteLocking

extension Publishers {
  /// A publisher of all the values of one publisher, then all the values of another:
  /// `append` and `prepend`.
  ///
  /// The suffix is subscribed when the prefix finishes, and asked for the demand downstream has
  /// left; a failure of either ends it. Downstream receives one subscription ("Concatenate").
  public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
  where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
    /// The kind of values this publisher publishes.
    public typealias Output = Suffix.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Suffix.Failure

    /// The publisher whose values come first.
    public let prefix: Prefix
    /// The publisher whose values come after the prefix finishes.
    public let suffix: Suffix

    /// `prefix`'s values, then `suffix`'s.
    public init(prefix: Prefix, suffix: Suffix) {
      self.prefix = prefix
      self.suffix = suffix
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let inner = ConcatenateInner<Suffix, S>(downstream: subscriber, suffix: suffix)
      prefix.subscribe(ConcatenateInner.Side(inner: inner, isSuffix: false))
    }
  }
}

/// The subscription of `Concatenate`.
final class ConcatenateInner<Suffix: Publisher, Downstream: Subscriber>: Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
  // @unchecked: the mutable state is behind `lock`.
  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  private let suffix: Suffix
  private let lock = Lock()
  private var subscription: (any Subscription)?
  private var onSuffix = false
  private var handedDownstream = false
  private var demand = Subscribers.Demand.none
  private var ended = false

  /// What a completion leads to: the suffix, or the completion of the subscriber let go of.
  private enum Next {
    case suffix
    case complete(Downstream?)
    case nothing
  }

  init(downstream: Downstream, suffix: Suffix) {
    self.downstream = downstream
    self.suffix = suffix
  }

  /// What `Concatenate` subscribes to the prefix, then to the suffix.
  struct Side: Subscriber {
    let inner: ConcatenateInner
    let isSuffix: Bool
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) { inner.receive(subscription, isSuffix) }
    func receive(_ input: Suffix.Output) -> Subscribers.Demand { inner.receive(input) }
    func receive(completion: Subscribers.Completion<Suffix.Failure>) {
      inner.receive(completion, isSuffix)
    }
  }

  private func receive(_ subscription: any Subscription, _ isSuffix: Bool) {
    lock.lock()
    guard !ended, isSuffix == onSuffix, self.subscription == nil, let downstream else {
      lock.unlock()
      return subscription.cancel()
    }
    self.subscription = subscription
    let first = !handedDownstream
    handedDownstream = true
    let demand = self.demand
    lock.unlock()
    if first {
      downstream.receive(subscription: self)
    } else if demand > 0 {
      subscription.request(demand)
    }
  }

  private func receive(_ input: Suffix.Output) -> Subscribers.Demand {
    lock.lock()
    guard !ended, let downstream else {
      lock.unlock()
      return .none
    }
    demand -= 1
    lock.unlock()
    let more = downstream.receive(input)
    lock.withLock { demand += more }
    return more
  }

  private func receive(_ completion: Subscribers.Completion<Suffix.Failure>, _ isSuffix: Bool) {
    let next = lock.withLock { () -> Next in
      guard !ended, isSuffix == onSuffix else { return .nothing }
      subscription = nil
      if case .finished = completion, !isSuffix {
        onSuffix = true
        return .suffix
      }
      ended = true
      return .complete(downstream.take())
    }
    switch next {
    case .suffix: suffix.subscribe(Side(inner: self, isSuffix: true))
    case .complete(let downstream): downstream?.receive(completion: completion)
    case .nothing: break
    }
  }

  func request(_ newDemand: Subscribers.Demand) {
    precondition(newDemand > 0, "a subscriber must request at least one value, not \(newDemand)")
    let subscription = lock.withLock { () -> (any Subscription)? in
      guard !ended else { return nil }
      demand += newDemand
      return self.subscription
    }
    subscription?.request(newDemand)
  }

  func cancel() {
    let (subscription, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      guard !ended else { return (nil, nil) }
      ended = true
      return (self.subscription.take(), self.downstream.take())
    }
    subscription?.cancel()
    _ = downstream
  }

  var description: String { "Concatenate" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Publishes `elements` after this publisher's values.
  public func append(_ elements: Output...)
    -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>>
  {
    append(Publishers.Sequence(sequence: elements))
  }

  /// Publishes the elements of `elements` after this publisher's values.
  public func append<S: Sequence>(_ elements: S)
    -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
  where S.Element == Output {
    append(Publishers.Sequence(sequence: elements))
  }

  /// Publishes `publisher`'s values after this publisher's.
  public func append<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<Self, P>
  where P.Output == Output, P.Failure == Failure {
    Publishers.Concatenate(prefix: self, suffix: publisher)
  }

  /// Publishes `elements` before this publisher's values.
  public func prepend(_ elements: Output...)
    -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self>
  {
    prepend(Publishers.Sequence(sequence: elements))
  }

  /// Publishes the elements of `elements` before this publisher's values.
  public func prepend<S: Sequence>(_ elements: S)
    -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
  where S.Element == Output {
    prepend(Publishers.Sequence(sequence: elements))
  }

  /// Publishes `publisher`'s values before this publisher's.
  public func prepend<P: Publisher>(_ publisher: P) -> Publishers.Concatenate<P, Self>
  where P.Output == Output, P.Failure == Failure {
    Publishers.Concatenate(prefix: publisher, suffix: self)
  }
}
