import KVOLiteLocking

/// Delivers one value and `.finished` on the first request (`Just`, `Optional.Publisher`,
/// `Result.Publisher`); describes itself by `name`, with the value as its mirror's one child.
/// Requesting `.none` traps, as in Combine; a cancel releases the subscriber.
final class SingleValueSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
  CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
  // @unchecked: `downstream` is taken once, under `lock`.
  private let lock = Lock()
  private let value: Downstream.Input
  private let name: String
  private var downstream: Downstream?

  init(value: Downstream.Input, downstream: Downstream, name: String) {
    self.value = value
    self.downstream = downstream
    self.name = name
  }

  func request(_ demand: Subscribers.Demand) {
    require(demand > 0, "a subscriber must request at least one value, not \(demand)")
    guard let taken = lock.withLock({ downstream.take() }) else { return }
    _ = taken.receive(value)
    taken.receive(completion: .finished)
  }

  func cancel() {
    let taken = lock.withLock { downstream.take() }
    withExtendedLifetime(taken) {}
  }

  var description: String { name }
  var customMirror: Mirror { Mirror(self, unlabeledChildren: CollectionOfOne(value)) }
  var playgroundDescription: Any { description }
}
