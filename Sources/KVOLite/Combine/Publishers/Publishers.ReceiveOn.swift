import Dispatch

extension Publishers {
  /// A publisher that delivers values and the completion on a dispatch queue.
  ///
  /// The subscription and demand requests are not moved: only the downstream callbacks run on
  /// the queue, in order. Demand returned by downstream there is requested from upstream then.
  public struct ReceiveOn<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    public let upstream: Upstream
    public let queue: DispatchQueue

    public init(upstream: Upstream, queue: DispatchQueue) {
      self.upstream = upstream
      self.queue = queue
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
      upstream.subscribe(ReceiveOnInner(downstream: subscriber, queue: queue))
    }
  }
}

extension Publisher {
  /// Delivers values and the completion on `queue`.
  ///
  ///     model.publisher(for: \.name).receive(on: .main).sink { label.text = $0 }
  public func receive(on queue: DispatchQueue) -> Publishers.ReceiveOn<Self> {
    Publishers.ReceiveOn(upstream: self, queue: queue)
  }
}

private final class ReceiveOnInner<Downstream: Subscriber>: OperatorSubscription<Downstream>,
  Subscriber, @unchecked Sendable
{
  // @unchecked: the downstream is only called on `queue`.
  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let queue: DispatchQueue

  init(downstream: Downstream, queue: DispatchQueue) {
    self.queue = queue
    super.init(downstream: downstream)
  }

  func receive(subscription: any Subscription) { accept(subscription) }

  func receive(_ input: Input) -> Subscribers.Demand {
    schedule {
      guard let subscription = self.lock.withLock({ self.status.subscription }) else { return }
      let more = self.downstream.receive(input)
      if more > 0 { subscription.request(more) }
    }
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    schedule { self.finish(completion) }
  }

  /// Runs `work` on the queue. The values it carries cross threads by design: the Publisher
  /// contract hands them to the subscriber on whatever thread delivers them.
  private func schedule(_ work: @escaping () -> Void) {
    let box = UncheckedSendable(work)
    queue.async { box.value() }
  }
}

extension ReceiveOnInner: CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible {
  /// "ReceiveOn", as Combine's subscription describes itself.
  var description: String { "ReceiveOn" }
  var customMirror: Mirror { Mirror(self, children: [:]) }
  var playgroundDescription: Any { description }
}
