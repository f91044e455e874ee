import KVOLiteLocking

extension Publishers {
  /// A connectable publisher that shares one subscription to its upstream among its
  /// subscribers, through a subject: Combine's `multicast`.
  ///
  /// The subject is made on first use and kept; subscribers attach to it at any time, and
  /// ``connect()`` subscribes it to upstream. A subscriber's demand goes to the subject. Each
  /// subscriber's subscription is "Multicast". Thread-safe.
  public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher,
    @unchecked Sendable
  where Upstream.Output == SubjectType.Output, Upstream.Failure == SubjectType.Failure {
    // @unchecked: the subject is made once, under `lock`.
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher shared.
    public let upstream: Upstream
    /// Makes the subject (once).
    public let createSubject: () -> SubjectType

    private let lock = Lock()
    private var madeSubject: SubjectType?

    /// A connectable publisher that shares `upstream` through the subject `createSubject` makes.
    public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
      self.upstream = upstream
      self.createSubject = createSubject
    }

    /// The subject, made on first use (outside the lock: `createSubject` is user code).
    private var subject: SubjectType {
      if let subject = lock.withLock({ madeSubject }) { return subject }
      let made = createSubject()
      return lock.withLock {
        if let existing = madeSubject { return existing }
        madeSubject = made
        return made
      }
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      subject.subscribe(MulticastInner(downstream: subscriber))
    }

    /// Subscribes the subject to upstream.
    public func connect() -> any Cancellable {
      upstream.subscribe(subject)
    }
  }
}

/// A subscriber's subscription to a ``Publishers/Multicast``: passes demand to the subject.
private final class MulticastInner<Downstream: Subscriber>: Subscriber, Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private var downstream: Downstream?
  private var status = SubscriptionStatus.awaitingSubscription

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  func receive(subscription: any Subscription) {
    let downstream = lock.withLock { () -> Downstream? in
      guard status.accept(subscription) else { return nil }
      return self.downstream
    }
    guard let downstream else { return subscription.cancel() }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard
      let (downstream, subscription) = lock.withLock({ () -> (Downstream, any Subscription)? in
        guard let subscription = status.subscription, let downstream else { return nil }
        return (downstream, subscription)
      })
    else { return .none }
    let more = downstream.receive(input)
    if more > 0 { subscription.request(more) }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let downstream = lock.withLock { () -> Downstream? in
      guard status.isSubscribed else { return nil }
      status = .terminal
      return self.downstream.take()
    }
    downstream?.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    let (subscription, downstream) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
      guard let subscription = status.subscription else { return (nil, nil) }
      status = .terminal
      return (subscription, self.downstream.take())
    }
    withExtendedLifetime(downstream) {}
    subscription?.cancel()
  }

  var description: String { "Multicast" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Shares this publisher through the subject `createSubject` makes, once connected.
  public func multicast<S: Subject>(_ createSubject: @escaping () -> S)
    -> Publishers.Multicast<Self, S>
  where S.Output == Output, S.Failure == Failure {
    Publishers.Multicast(upstream: self, createSubject: createSubject)
  }

  /// Shares this publisher through `subject`, once connected.
  public func multicast<S: Subject>(subject: S) -> Publishers.Multicast<Self, S>
  where S.Output == Output, S.Failure == Failure {
    Publishers.Multicast(upstream: self) { subject }
  }
}
