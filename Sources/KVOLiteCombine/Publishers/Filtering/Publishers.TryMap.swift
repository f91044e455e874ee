import KVOLiteLocking

extension Publishers {
  /// A publisher that transforms every value with a throwing closure; a thrown error cancels
  /// upstream and ends the publisher with that error.
  ///
  /// Unlike ``Map``, it has a subscription of its own ("TryMap"), with Combine's state machine:
  /// every value is transformed and handed on, even one that arrives before the subscription
  /// or after the end; a completion is handed on only while subscribed; a request or cancel
  /// before the subscription does nothing. Thread-safe.
  public struct TryMap<Upstream: Publisher, Output>: Publisher {
    /// The kind of errors this publisher might publish.
    public typealias Failure = any Error

    /// The publisher this one transforms.
    public let upstream: Upstream
    /// The transformation.
    public let transform: (Upstream.Output) throws -> Output

    /// A publisher that transforms `upstream`'s values with `transform`.
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Attaches `subscriber`: it receives its subscription, then values within the demand it
    /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(
        TryMapInner<Upstream.Output, Upstream.Failure, S>(
          downstream: subscriber, transform: transform))
    }
  }
}

/// The subscription of `tryMap`.
final class TryMapInner<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Failure == any Error {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = UpstreamFailure

  private let lock = Lock()
  private var status = SubscriptionStatus.awaitingSubscription
  private var downstream: EndingDownstream<Downstream>
  private let transform: (Input) throws -> Downstream.Input

  init(
    downstream: Downstream, transform: @escaping (Input) throws -> Downstream.Input
  ) {
    self.downstream = EndingDownstream(downstream)
    self.transform = transform
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard status.accept(subscription), let downstream = downstream.live else {
      lock.unlock()
      return subscription.cancel()
    }
    lock.unlock()
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let downstream = lock.withLock({ self.downstream.reachable }) else { return .none }
    let output: Downstream.Input
    do {
      output = try transform(input)
    } catch {
      let (subscription, ended) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
        defer { status = .terminal }
        return (status.subscription, self.downstream.end())
      }
      subscription?.cancel()
      withExtendedLifetime(ended) { downstream.receive(completion: .failure(error)) }
      return .none
    }
    return downstream.receive(output)
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard status.isSubscribed else { return lock.unlock() }
    status = .terminal
    let downstream = self.downstream.end()
    lock.unlock()
    switch completion {
    case .finished: downstream?.receive(completion: .finished)
    case .failure(let error): downstream?.receive(completion: .failure(error))
    }
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { status.subscription }?.request(demand)
  }

  func cancel() {
    lock.lock()
    guard let subscription = status.subscription else { return lock.unlock() }
    status = .terminal
    let downstream = self.downstream.end()
    lock.unlock()
    subscription.cancel()
    withExtendedLifetime(downstream) {}
  }

  var description: String { "TryMap" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}

extension Publishers.TryMap {
  /// Fuses with the next `map`, as Combine does: one `TryMap`.
  public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { transform(try first($0)) }
  }

  /// Fuses with the next `tryMap`, as Combine does.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T)
    -> Publishers.TryMap<Upstream, T>
  {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { try transform(try first($0)) }
  }
}

extension Publishers.Map {
  /// Fuses with the next `tryMap`, as Combine does: one `TryMap`.
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T)
    -> Publishers.TryMap<Upstream, T>
  {
    let first = self.transform
    return Publishers.TryMap(upstream: upstream) { try transform(first($0)) }
  }
}

extension Publisher {
  /// Transforms every value with a throwing closure; a thrown error ends the publisher.
  ///
  ///     strings.tryMap { try JSONDecoder().decode(Book.self, from: Data($0.utf8)) }
  public func tryMap<T>(_ transform: @escaping (Output) throws -> T) -> Publishers.TryMap<Self, T> {
    Publishers.TryMap(upstream: self, transform: transform)
  }
}
