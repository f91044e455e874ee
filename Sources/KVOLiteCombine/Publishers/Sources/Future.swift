import KVOLiteLocking

/// A publisher that eventually produces one value and finishes, or fails: Combine's `Future`.
///
/// The closure given to the initializer runs at once, on the creating thread, and is handed a
/// promise. The promise may be called from any thread; the first call decides the result and
/// later calls do nothing. Each subscriber receives the result once it has asked for a value
/// (a failure is sent whatever the demand), then is released; a subscriber that arrives after
/// the promise receives the result on its first request. Its subscriptions describe themselves
/// as "Future". Thread-safe.
///
///     let loaded = Future<Data, Error> { promise in load { promise($0) } }
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`.
  /// The closure that fulfils the future.
  public typealias Promise = (Result<Output, Failure>) -> Void

  private let lock = Lock()
  private var result: Result<Output, Failure>?
  private var conduits: [FutureConduitBase<Output, Failure>] = []

  /// A future fulfilled by `attemptToFulfill`, which runs now.
  public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
    attemptToFulfill { [self] result in fulfil(result) }
  }

  private func fulfil(_ newResult: Result<Output, Failure>) {
    let waiting = lock.withLock { () -> [FutureConduitBase<Output, Failure>] in
      guard result == nil else { return [] }
      result = newResult
      defer { conduits = [] }
      return conduits
    }
    for conduit in waiting { conduit.fulfil(newResult) }
  }

  /// The result, once the promise has been called.
  var fulfilled: Result<Output, Failure>? { lock.withLock { result } }

  /// Attaches `subscriber`: it receives its subscription, then values within the demand it
  /// signals, then at most one completion, as ``Publisher/receive(subscriber:)`` states.
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let conduit = FutureConduit(parent: self, downstream: subscriber)
    let known = lock.withLock { () -> Result<Output, Failure>? in
      if result == nil { conduits.append(conduit) }
      return result
    }
    subscriber.receive(subscription: conduit)
    if let known { conduit.fulfil(known) }
  }

  fileprivate func remove(_ conduit: FutureConduitBase<Output, Failure>) {
    let removed = lock.withLock { () -> FutureConduitBase<Output, Failure>? in
      guard let index = conduits.firstIndex(where: { $0 === conduit }) else { return nil }
      return conduits.remove(at: index)
    }
    withExtendedLifetime(removed) {}
  }
}

/// One subscriber's subscription to a future, without the subscriber's type.
private class FutureConduitBase<Output, Failure: Error>: @unchecked Sendable {
  func fulfil(_ result: Result<Output, Failure>) {}
}

/// One subscriber's subscription to a future: keeps the subscriber until it delivers or is
/// cancelled, and the future until it is cancelled or has delivered the result the promise
/// brought; a result delivered on a request (the promise came first) leaves it keeping the
/// future, as Combine's does (the future keeps no subscription then, so this is no cycle).
private final class FutureConduit<Downstream: Subscriber>: FutureConduitBase<
  Downstream.Input, Downstream.Failure
>,
Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible,
@unchecked Sendable
{
  // @unchecked: the mutable state is behind `lock`.
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = Lock()
  private var parent: Future<Output, Failure>?
  private var downstream: Downstream?
  private var hasDemand = false

  init(parent: Future<Output, Failure>, downstream: Downstream) {
    self.parent = parent
    self.downstream = downstream
  }

  /// Delivers `result` if the subscriber can take it now (a value needs demand). As in
  /// Combine, the conduit keeps its future (its mirror's `parent`) until it has delivered, and
  /// lets go of it then.
  override func fulfil(_ result: Result<Output, Failure>) {
    guard deliver(result) else { return }
    lock.withLock { parent.take() }?.remove(self)
  }

  /// Delivers `result` if the subscriber can take it now; returns whether it did.
  private func deliver(_ result: Result<Output, Failure>) -> Bool {
    let taken = lock.withLock { () -> Downstream? in
      guard downstream != nil else { return nil }
      if case .success = result, !hasDemand { return nil }
      return downstream.take()
    }
    guard let downstream = taken else { return false }
    deliver(result, to: downstream)
    return true
  }

  private func deliver(_ result: Result<Output, Failure>, to downstream: Downstream) {
    switch result {
    case .success(let output):
      _ = downstream.receive(output)
      downstream.receive(completion: .finished)
    case .failure(let error):
      downstream.receive(completion: .failure(error))
    }
  }

  func request(_ demand: Subscribers.Demand) {
    require(demand > 0, "a subscriber must request at least one value, not \(demand)")
    let parent = lock.withLock { () -> Future<Output, Failure>? in
      guard downstream != nil else { return nil }
      hasDemand = true
      return self.parent
    }
    // As in Combine, a result delivered on request (the promise was called before the demand
    // came) leaves the conduit keeping its future: it is taken out of the future's list only.
    guard let parent, let result = parent.fulfilled, deliver(result) else { return }
    parent.remove(self)
  }

  func cancel() {
    let (downstream, parent) = lock.withLock { (self.downstream.take(), self.parent.take()) }
    withExtendedLifetime(downstream) {}
    parent?.remove(self)
  }

  var description: String { "Future" }
  var customMirror: Mirror {
    let (parent, downstream, hasDemand) = lock.withLock {
      (self.parent, self.downstream, self.hasDemand)
    }
    return Mirror(
      self,
      children: [
        ("parent", parent as Any), ("downstream", downstream as Any), ("hasAnyDemand", hasDemand),
        ("subject", parent as Any),
      ])
  }
  var playgroundDescription: Any { description }
}
