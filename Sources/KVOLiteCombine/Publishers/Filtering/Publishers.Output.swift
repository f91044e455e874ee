import KVOLiteLocking

extension Publishers {
  /// A publisher of the values of its upstream at the positions in a range (`prefix(_:)`,
  /// `output(at:)`, `output(in:)`).
  ///
  /// Values before the range are dropped (each answering upstream with a demand of one more).
  /// As in Combine, the value after the range is what ends it: that value cancels upstream and
  /// finishes. Its subscription is "Output".
  public struct Output<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are taken.
    public let upstream: Upstream
    /// The positions taken, counted from 0.
    public let range: CountableRange<Int>

    /// The values of `upstream` at the positions in `range`.
    /// - Precondition: `range` does not start below 0.
    public init(upstream: Upstream, range: CountableRange<Int>) {
      require(range.lowerBound >= 0, "a range of positions cannot start below 0")
      self.upstream = upstream
      self.range = range
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(OutputInner(downstream: subscriber, range: range))
    }
  }
}

/// What `output(in:)` does with a value.
private enum OutputAction {
  case skip, send, end
}

/// The subscription of `output(in:)`, `output(at:)` and `prefix(_:)`, with Combine's state
/// machine:
///
/// - values are counted whatever the state: those before the range answer `.max(1)`, those in
///   it are handed on (even before the subscription and after the end, to a subscriber that is
///   still alive, see ``EndingDownstream``), the first after it cancels upstream and finishes
///   downstream if subscribed;
/// - a completion is handed on while subscribed, once; requests go upstream while subscribed;
///   a cancel before the subscription does nothing.
///
/// Thread-safe: one state behind one lock; nothing is called with it held.
private final class OutputInner<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private var downstream: EndingDownstream<Downstream>
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var untilStart: Int
  private var remaining: Int

  init(downstream: Downstream, range: CountableRange<Int>) {
    self.downstream = EndingDownstream(downstream)
    untilStart = range.lowerBound
    remaining = range.count
  }

  func receive(subscription: any Subscription) {
    guard
      let downstream = lock.withLock({ status.accept(subscription) ? downstream.live : nil })
    else {
      return subscription.cancel()
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    if untilStart > 0 {
      untilStart -= 1
      lock.unlock()
      return .max(1)
    }
    guard remaining > 0 else {
      // Past the range: cancel upstream and finish, if subscribed.
      guard let subscription = status.subscription else {
        lock.unlock()
        return .none
      }
      status = .terminal
      let ended = downstream.end()
      lock.unlock()
      subscription.cancel()
      ended?.receive(completion: .finished)
      return .none
    }
    remaining -= 1
    let downstream = self.downstream.reachable
    lock.unlock()
    return downstream?.receive(input) ?? .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let ended = lock.withLock { () -> Downstream? in
      guard status.isSubscribed else { return nil }
      status = .terminal
      return downstream.end()
    }
    ended?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let (subscription, ended) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      guard let subscription = status.subscription else { return (nil, nil) }
      status = .terminal
      return (subscription, downstream.end())
    }
    subscription?.cancel()
    withExtendedLifetime(ended) {}
  }

  var description: String { "Output" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Republishes at most the first `maxLength` values.
  public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
    output(in: ..<maxLength)
  }

  /// Republishes only the value at position `index` (counted from 0).
  public func output(at index: Int) -> Publishers.Output<Self> {
    output(in: index...index)
  }

  /// Republishes the values at the positions in `range` (counted from 0).
  public func output<R: RangeExpression>(in range: R) -> Publishers.Output<Self>
  where R.Bound == Int {
    Publishers.Output(upstream: self, range: range.relative(to: 0..<Int.max))
  }
}
