import KVOLiteLocking

/// The subscription of `encode` and `decode`, with Combine's state machine for them: it keeps
/// one flag, whether it has finished.
///
/// - Until it finishes, every value is coded and handed on, even one that arrives before the
///   subscription; a coding error cancels upstream and fails downstream;
/// - the first completion is handed on, even one that arrives before the subscription; later
///   events are ignored (a value answers `.none`);
/// - a request goes to upstream's subscription once there is one (`.none` too); a cancel
///   before the subscription does nothing.
///
/// Once finished or cancelled it lets go of its subscriber (after unlocking). Thread-safe.
final class CodingInner<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
  @unchecked Sendable
where Downstream.Failure == any Error {
  // @unchecked: the mutable state is behind `lock`.
  typealias Failure = UpstreamFailure

  private let lock = Lock()
  private var downstream: Downstream?
  private var finished = false
  private var subscription: (any Subscription)?
  private let name: String
  private let code: (Input) throws -> Downstream.Input

  init(downstream: Downstream, name: String, code: @escaping (Input) throws -> Downstream.Input) {
    self.downstream = downstream
    self.name = name
    self.code = code
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard !finished, self.subscription == nil, let downstream else {
      lock.unlock()
      return subscription.cancel()
    }
    self.subscription = subscription
    lock.unlock()
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard let downstream = lock.withLock({ finished ? nil : downstream }) else { return .none }
    let output: Downstream.Input
    do {
      output = try code(input)
    } catch {
      let (subscription, ended) = lock.withLock { () -> ((any Subscription)?, Downstream?) in
        finished = true
        return (self.subscription.take(), self.downstream.take())
      }
      subscription?.cancel()
      withExtendedLifetime(ended) { downstream.receive(completion: .failure(error)) }
      return .none
    }
    return downstream.receive(output)
  }

  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard !finished else { return lock.unlock() }
    finished = true
    let (subscription, downstream) = (self.subscription.take(), self.downstream.take())
    lock.unlock()
    withExtendedLifetime(subscription) {}
    switch completion {
    case .finished: downstream?.receive(completion: .finished)
    case .failure(let error): downstream?.receive(completion: .failure(error))
    }
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { subscription }?.request(demand)
  }

  func cancel() {
    lock.lock()
    guard !finished, let subscription = subscription.take() else { return lock.unlock() }
    finished = true
    let downstream = self.downstream.take()
    lock.unlock()
    subscription.cancel()
    withExtendedLifetime(downstream) {}
  }

  var description: String { name }
  var customMirror: Mirror {
    let (downstream, finished, subscription) = lock.withLock {
      (self.downstream, self.finished, self.subscription)
    }
    return Mirror(
      self,
      children: [
        ("downstream", downstream as Any), ("finished", finished),
        ("upstreamSubscription", subscription as Any),
      ])
  }
  var playgroundDescription: Any { description }
}
