import KVOLiteCombine

/// A publisher for one subscriber whose events a test sends by hand, as Combine asks of an
/// upstream: it hands over its subscription when subscribed to (or, if made with
/// `subscribesAtOnce: false`, on ``sendSubscription()``), sends a value only within the demand
/// its subscriber asked for, and nothing once cancelled or completed.
///
/// Its state is behind an `NSLock`, which is no schedule point of ``ThreadScheduler``'s: the
/// interleavings explored are those of the subscriber (the operator under test) alone. It calls
/// its subscriber without the lock held, and keeps it until the subscription is cancelled or
/// completed; the subscription refers to the publisher weakly.
public final class ManualPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
  // @unchecked: the mutable state is behind `state`.
  private struct State {
    var subscriber: AnySubscriber<Output, Failure>?
    var subscribed = false
    var demand = Subscribers.Demand.none
    var requested = Subscribers.Demand.none
    var cancelled = false
    var completed = false
  }

  private let subscribesAtOnce: Bool
  private let state = Locked(State())

  /// A publisher with no subscriber yet, that hands its subscription over as soon as it has one
  /// if `subscribesAtOnce`.
  public init(subscribesAtOnce: Bool = true) {
    self.subscribesAtOnce = subscribesAtOnce
  }

  /// Whether its subscriber has its subscription.
  public var isSubscribed: Bool { state.withLock { $0.subscribed } }

  /// What its subscriber asked for in all.
  public var requested: Subscribers.Demand { state.withLock { $0.requested } }

  /// Whether a value sent now would go out: subscribed, asked for, neither cancelled nor
  /// completed.
  public var canSend: Bool {
    state.withLock { $0.subscribed && $0.demand > 0 && !$0.cancelled && !$0.completed }
  }

  /// Whether the subscription was cancelled.
  public var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Whether it has completed, or its subscription was cancelled: it sends nothing more.
  public var isOver: Bool { state.withLock { $0.cancelled || $0.completed } }

  /// Keeps `subscriber` (the one it sends to), and hands it its subscription if made with
  /// `subscribesAtOnce`.
  public func receive<S: Subscriber>(subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    state.withLock { $0.subscriber = AnySubscriber(subscriber) }
    if subscribesAtOnce { sendSubscription() }
  }

  /// Hands the subscriber its subscription.
  public func sendSubscription() {
    guard let subscriber = state.withLock({ $0.subscribed ? nil : $0.subscriber }) else { return }
    state.withLock { $0.subscribed = true }
    subscriber.receive(subscription: Handle(self))
  }

  /// Sends `value` if the subscriber asked for it and the subscription is neither cancelled nor
  /// completed; returns whether it was sent.
  @discardableResult
  public func send(_ value: Output) -> Bool {
    let subscriber = state.withLock { state -> AnySubscriber<Output, Failure>? in
      guard state.subscribed, state.demand > 0, !state.cancelled, !state.completed else {
        return nil
      }
      state.demand -= 1
      return state.subscriber
    }
    guard let subscriber else { return false }
    let more = subscriber.receive(value)
    state.withLock { $0.demand += more }
    return true
  }

  /// Sends `completion` unless the subscription was cancelled or completed; returns whether it
  /// was sent.
  @discardableResult
  public func send(completion: Subscribers.Completion<Failure>) -> Bool {
    let subscriber = state.withLock { state -> AnySubscriber<Output, Failure>? in
      guard state.subscribed, !state.cancelled, !state.completed else { return nil }
      state.completed = true
      return state.subscriber.take()
    }
    subscriber?.receive(completion: completion)
    return subscriber != nil
  }

  /// The subscription it hands over.
  private final class Handle: Subscription, @unchecked Sendable {
    // @unchecked: immutable; the publisher is thread-safe.
    weak var publisher: ManualPublisher?

    init(_ publisher: ManualPublisher) { self.publisher = publisher }

    func request(_ demand: Subscribers.Demand) {
      publisher?.state.withLock { state in
        state.demand += demand
        state.requested += demand
      }
    }

    func cancel() {
      let subscriber = publisher?.state.withLock { state in
        state.cancelled = true
        return state.subscriber.take()
      }
      withExtendedLifetime(subscriber) {}
    }
  }
}
