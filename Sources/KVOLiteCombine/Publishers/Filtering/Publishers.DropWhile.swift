import KVOLiteLocking

extension Publishers {
  /// A publisher that drops values while a predicate holds, then republishes every value
  /// (the predicate is not consulted again). Its subscription is "DropWhile".
  public struct DropWhile<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = Upstream.Failure

    /// The publisher whose first values are dropped.
    public let upstream: Upstream
    /// Whether to keep dropping.
    public let predicate: (Upstream.Output) -> Bool

    /// `upstream`'s values from the first that `predicate` rejects.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      upstream.subscribe(
        DropWhileInner<Failure, S>(downstream: subscriber, name: "DropWhile", mapFailure: { $0 }) {
          (value) throws(Failure) in predicate(value)
        })
    }
  }

  /// ``DropWhile`` with a throwing predicate; a thrown error cancels upstream and ends the
  /// publisher with that error. Its subscription is "TryDropWhile".
  public struct TryDropWhile<Upstream: Publisher>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Upstream.Output
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher whose first values are dropped.
    public let upstream: Upstream
    /// Whether to keep dropping.
    public let predicate: (Upstream.Output) throws -> Bool

    /// `upstream`'s values from the first that `predicate` rejects.
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      upstream.subscribe(
        DropWhileInner<Upstream.Failure, S>(
          downstream: subscriber, name: "TryDropWhile", mapFailure: { $0 }
        ) {
          (value) throws(any Error) in try predicate(value)
        })
    }
  }
}

/// The subscription of `drop(while:)` and `tryDrop(while:)`: a value before subscription or
/// after the end is answered `.none`; the predicate is released at the end.
private final class DropWhileInner<UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription,
  CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Downstream.Input
  typealias Failure = UpstreamFailure

  /// The subscriber, until the subscription ends.
  private var downstream: Downstream?
  private let name: String
  private let mapFailure: (UpstreamFailure) -> Downstream.Failure
  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var predicate: ((Input) throws(Downstream.Failure) -> Bool)?
  private var dropping = true

  init(
    downstream: Downstream, name: String,
    mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
    predicate: @escaping (Input) throws(Downstream.Failure) -> Bool
  ) {
    self.downstream = downstream
    self.name = name
    self.mapFailure = mapFailure
    self.predicate = predicate
  }

  func receive(subscription: any Subscription) {
    guard let downstream = lock.withLock({ status.accept(subscription) ? downstream : nil }) else {
      return subscription.cancel()
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard let subscription = status.subscription, let predicate, let downstream else {
      lock.unlock()
      return .none
    }
    let dropping = self.dropping
    lock.unlock()
    if dropping {
      do {
        if try predicate(input) { return .max(1) }
        lock.withLock { self.dropping = false }
      } catch {
        let ended = lock.withLock { status.isSubscribed ? end() : nil }
        guard let ended else { return .none }
        subscription.cancel()
        ended.downstream?.receive(completion: .failure(error))
        return .none
      }
    }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    guard let ended = lock.withLock({ status.isSubscribed ? end() : nil }) else { return }
    switch completion {
    case .finished: ended.downstream?.receive(completion: .finished)
    case .failure(let error): ended.downstream?.receive(completion: .failure(mapFailure(error)))
    }
  }

  func request(_ demand: Subscribers.Demand) {
    require(demand > 0, "a subscriber must request at least one value, not \(demand)")
    lock.withLock { status.subscription }?.request(demand)
  }

  /// As in Combine, a cancel before upstream's subscription does nothing: the subscription,
  /// when it comes, is taken.
  func cancel() {
    let (subscription, ended) = lock.withLock {
      () -> ((any Subscription)?, (downstream: Downstream?, predicate: Any?)?) in
      if case .awaitingSubscription = status { return (nil, nil) }
      return (status.subscription, end())
    }
    withExtendedLifetime(ended) {}
    subscription?.cancel()
  }

  /// Ends, with the lock held: lets go of the subscriber and the predicate (released by the
  /// caller after unlocking).
  private func end() -> (downstream: Downstream?, predicate: Any?) {
    status = .terminal
    return (downstream.take(), predicate.take())
  }

  var description: String { name }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Drops values while `predicate` holds, then republishes every value.
  public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
    Publishers.DropWhile(upstream: self, predicate: predicate)
  }

  /// Drops values while a throwing `predicate` holds; a thrown error ends the publisher.
  public func tryDrop(while predicate: @escaping (Output) throws -> Bool)
    -> Publishers.TryDropWhile<Self>
  {
    Publishers.TryDropWhile(upstream: self, predicate: predicate)
  }
}
