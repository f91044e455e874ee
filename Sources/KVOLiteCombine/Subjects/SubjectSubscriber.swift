import KVOLiteLocking

/// What `publisher.subscribe(subject)` attaches to the publisher: it hands itself to the
/// subject as its upstream subscription and sends values and the completion into the subject.
///
/// It refers to the subject weakly (the subject keeps it, as its upstream); once the subject
/// has completed through it, or it is cancelled, it forwards nothing. Describes itself as
/// "Subject". Thread-safe.
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription,
  CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Input = Downstream.Output
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private weak var subject: Downstream?
  private var upstream: (any Subscription)?

  init(_ subject: Downstream) {
    self.subject = subject
  }

  func receive(subscription: any Subscription) {
    let subject = lock.withLock { () -> Downstream? in
      guard upstream == nil, let subject = self.subject else { return nil }
      upstream = subscription
      return subject
    }
    subject?.send(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.withLock { upstream == nil ? nil : subject }?.send(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let subject = lock.withLock { () -> Downstream? in
      guard upstream != nil else { return nil }
      return self.subject.take()
    }
    subject?.send(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { upstream }?.request(demand)
  }

  func cancel() {
    let subscription = lock.withLock { () -> (any Subscription)? in
      guard subject != nil, let subscription = upstream.take() else { return nil }
      subject = nil
      return subscription
    }
    subscription?.cancel()
  }

  var description: String { "Subject" }
  var customMirror: Mirror {
    let (subject, upstream) = lock.withLock { (self.subject, self.upstream) }
    return Mirror(
      self,
      children: [
        ("downstreamSubject", subject as Any), ("upstreamSubscription", upstream as Any),
        ("subject", subject as Any),
      ])
  }
  var playgroundDescription: Any { description }
}

extension Publisher {
  /// Sends this publisher's values and completion into `subject`, which asks for them as its
  /// kind does (a passthrough subject once one of its subscribers has asked).
  ///
  /// - Returns: A cancellable that ends the subscription when cancelled or released.
  public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable
  where S.Output == Output, S.Failure == Failure {
    let subscriber = SubjectSubscriber(subject)
    subscribe(subscriber)
    return AnyCancellable(subscriber)
  }
}
