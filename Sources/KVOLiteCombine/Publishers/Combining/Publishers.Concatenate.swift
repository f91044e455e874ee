import KVOLiteLocking

extension Publishers {
  /// A publisher of all the values of one publisher, then all the values of another:
  /// `append` and `prepend`.
  ///
  /// The suffix is subscribed when the prefix finishes, and asked for the demand downstream has
  /// left; a failure of either ends it. Downstream receives one subscription ("Concatenate"),
  /// and never more values than it asked for. Thread-safe.
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
      prefix.subscribe(ConcatenateInner.Side<PrefixSide>(inner: inner))
    }
  }
}

/// The subscription of `Concatenate`, with Combine's state machine:
///
/// - downstream gets this subscription when the prefix's subscription arrives; events before
///   it are ignored;
/// - requests (`.none` included) go to the side that is subscribed now, and add to the demand
///   kept here; when the prefix finishes, the suffix is subscribed and asked for what is left;
/// - a value uses one unit of demand before it is delivered (so values sent from inside the
///   delivery stop when the demand is used up); a value without demand, or from a side that is
///   not the current one (the finished prefix, the suffix before its turn), is ignored, and
///   answers `.none`; the demand downstream answers with is added here and returned upstream;
/// - it lets go of its subscriber and the suffix once it has completed or been cancelled
///   (after unlocking); a cancel before the prefix finished never subscribes the suffix.
///
/// Thread-safe: one state behind one lock; nothing is called with it held.
final class ConcatenateInner<Suffix: Publisher, Downstream: Subscriber>: Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
  // @unchecked: the mutable state is behind `lock`.

  /// Which side is current.
  private enum Phase {
    /// The prefix has not sent its subscription yet.
    case awaitingPrefix
    case prefix(any Subscription)
    /// The prefix finished; the suffix has not sent its subscription yet.
    case awaitingSuffix
    case suffix(any Subscription)
    /// Completed or cancelled.
    case ended

    var subscription: (any Subscription)? {
      switch self {
      case .prefix(let subscription), .suffix(let subscription): subscription
      default: nil
      }
    }
  }

  private let lock = Lock()
  private var phase = Phase.awaitingPrefix
  private var downstream: Downstream?
  private var suffix: Suffix?
  private var demand = Subscribers.Demand.none

  init(downstream: Downstream, suffix: Suffix) {
    self.downstream = downstream
    self.suffix = suffix
  }

  /// What `Concatenate` subscribes to its prefix (`Side<PrefixSide>`) or its suffix
  /// (`Side<SuffixSide>`): two types, as Combine's two subscribers are; both share the
  /// subscription's identifier.
  struct Side<Position: ConcatenatePosition>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
  {
    let inner: ConcatenateInner
    var onSuffix: Bool { Position.isSuffix }
    var combineIdentifier: CombineIdentifier { CombineIdentifier(inner) }
    var description: String { "Concatenate" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
    var playgroundDescription: Any { description }

    func receive(subscription: any Subscription) {
      inner.receive(subscription, onSuffix: onSuffix)
    }
    func receive(_ input: Suffix.Output) -> Subscribers.Demand {
      inner.receive(input, onSuffix: onSuffix)
    }
    func receive(completion: Subscribers.Completion<Suffix.Failure>) {
      inner.receive(completion, onSuffix: onSuffix)
    }
  }

  private func receive(_ subscription: any Subscription, onSuffix: Bool) {
    lock.lock()
    switch (phase, onSuffix) {
    case (.awaitingPrefix, false):
      phase = .prefix(subscription)
      let downstream = self.downstream
      lock.unlock()
      downstream?.receive(subscription: self)
    case (.awaitingSuffix, true):
      phase = .suffix(subscription)
      let demand = self.demand
      lock.unlock()
      if demand > 0 { subscription.request(demand) }
    default:
      lock.unlock()
      subscription.cancel()
    }
  }

  /// Whether `phase` is the side a value or completion came from.
  private func isCurrent(onSuffix: Bool) -> Bool {
    switch phase {
    case .prefix: !onSuffix
    case .suffix: onSuffix
    default: false
    }
  }

  private func receive(_ input: Suffix.Output, onSuffix: Bool) -> Subscribers.Demand {
    lock.lock()
    guard isCurrent(onSuffix: onSuffix), demand > 0, let downstream else {
      lock.unlock()
      return .none
    }
    demand -= 1
    lock.unlock()
    let more = downstream.receive(input)
    guard more > 0 else { return .none }
    lock.withLock { demand += more }
    return more
  }

  private func receive(_ completion: Subscribers.Completion<Suffix.Failure>, onSuffix: Bool) {
    lock.lock()
    guard isCurrent(onSuffix: onSuffix) else { return lock.unlock() }
    if case .finished = completion, !onSuffix, let suffix {
      phase = .awaitingSuffix
      lock.unlock()
      suffix.subscribe(Side<SuffixSide>(inner: self))
      return
    }
    phase = .ended
    let (downstream, suffix) = (self.downstream.take(), self.suffix.take())
    lock.unlock()
    withExtendedLifetime(suffix) {}
    downstream?.receive(completion: completion)
  }

  func request(_ newDemand: Subscribers.Demand) {
    lock.lock()
    guard downstream != nil else { return lock.unlock() }
    demand += newDemand
    let subscription = phase.subscription
    lock.unlock()
    subscription?.request(newDemand)
  }

  func cancel() {
    lock.lock()
    let subscription = phase.subscription
    phase = .ended
    let (downstream, suffix) = (self.downstream.take(), self.suffix.take())
    lock.unlock()
    subscription?.cancel()
    withExtendedLifetime((downstream, suffix)) {}
  }

  var description: String { "Concatenate" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

/// Which of its two publishers a `Concatenate` subscriber is attached to.
protocol ConcatenatePosition {
  static var isSuffix: Bool { get }
}

/// The prefix, subscribed first.
enum PrefixSide: ConcatenatePosition {
  static var isSuffix: Bool { false }
}

/// The suffix, subscribed once the prefix has finished.
enum SuffixSide: ConcatenatePosition {
  static var isSuffix: Bool { true }
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
