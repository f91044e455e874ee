import KVOLiteLocking

/// The storage shared by the subjects, `@Published` and `objectWillChange`: their
/// ``SubjectStateMachine`` behind `lock`. Each method makes one transition with the lock held
/// and performs the action it returns after unlocking, so nothing is called with the lock held.
/// Each conduit delivers to its subscriber one event at a time (see ``SubjectConduit``).
///
/// Lock order: a conduit's delivery lock, then this lock, only while subscribing (the conduit
/// is new: no other thread can hold its delivery lock yet). This lock is otherwise a leaf.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`.

  /// How the subject treats values and demand (also the machine's; kept here, immutable, so
  /// that it is read without the lock).
  @usableFromInline let kind: SubjectKind
  /// The description of its subscriptions: "PassthroughSubject", "CurrentValueSubject", …
  @usableFromInline let name: String
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var machine: SubjectStateMachine<Output, Failure>

  @inlinable init(kind: SubjectKind, name: String, current: Output? = nil) {
    self.kind = kind
    self.name = name
    machine = SubjectStateMachine(kind: kind, current: current)
  }

  /// The current value (current-value kinds only).
  @inlinable var value: Output { lock.withLock { machine.current! } }

  /// Attaches `subscriber`; its conduit keeps `owner` (the subject) alive until it ends.
  ///
  /// The subscriber has its subscription before anything else reaches it: this thread holds
  /// the conduit's delivery lock from before the conduit is listed until the subscriber's
  /// `receive(subscription:)` has returned, so a value sent meanwhile on another thread waits
  /// for it (Combine's contract: the subscription comes first; the completion could come first
  /// when the conduit was listed before the handover). A completion sent meanwhile is held,
  /// and this thread delivers it once the handover ends — unless the subscriber cancelled
  /// inside `receive(subscription:)`: then it receives nothing more (KVOLite's rule; Combine
  /// leaves it unspecified).
  @inlinable func subscribe<S: Subscriber>(_ subscriber: S, owner: AnyObject)
  where S.Input == Output, S.Failure == Failure {
    let conduit = SubjectConduit(core: self, owner: owner, downstream: subscriber)
    conduit.delivery.withLock {
      lock.lock()
      let action = machine.subscribe(conduit)
      lock.unlock()
      switch action {
      case .handOver:
        subscriber.receive(subscription: conduit)
        conduit.endHandOver()
      case .completeAtOnce(let completion):
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: completion)
      }
    }
  }

  /// Sends `value` to every conduit (current-value kinds store it, before or after as their
  /// kind says). Nothing happens after completion.
  @inlinable func send(_ value: Output) {
    lock.lock()
    let action = machine.send(value)
    lock.unlock()
    guard case .offer(let targets) = action else { return }
    for conduit in targets { conduit?.offer(value) }
    if kind.storesAfterSending { lock.withLock { machine.store(value) } }
  }

  /// Stores `value` without sending it (a current-value subject's `value` set after
  /// completion).
  @inlinable func store(_ value: Output) {
    lock.withLock { machine.store(value) }
  }

  /// Whether the subject has completed.
  @inlinable var isCompleted: Bool { lock.withLock { machine.isCompleted } }

  /// Sends `completion` to every subscriber, once.
  @inlinable func send(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    let action = machine.complete(completion)
    lock.unlock()
    guard case .finish(let targets, let completion) = action else { return }
    for conduit in targets { conduit?.finish(completion) }
  }

  /// Keeps an upstream subscription; asks it for values now if a subscriber has already asked
  /// (passthrough) or at once (current-value kinds).
  @inlinable func send(subscription: any Subscription) {
    perform(lock.withLock { machine.receive(upstream: subscription) })
  }

  /// A subscriber asked for values: the first time, a passthrough subject asks its upstreams.
  @inlinable func acknowledgeDemand() {
    guard !kind.asksUpstreamsAtOnce else { return }
    perform(lock.withLock { machine.acknowledgeDemand() })
  }

  /// A conduit was cancelled: its slot in the list is emptied (see ``SubjectStateMachine``).
  @usableFromInline func remove(_ conduit: SubjectConduitBase<Output, Failure>) {
    lock.withLock { machine.remove(conduit) }
  }

  /// Cancels the upstream subscriptions: the subject is being released.
  @usableFromInline func cancelUpstreams() {
    perform(lock.withLock { machine.release() })
  }

  /// Performs an action on the upstream subscriptions, after unlocking.
  @inlinable func perform(_ action: SubjectStateMachine<Output, Failure>.UpstreamAction) {
    switch action {
    case .requestUnlimited(let subscriptions):
      for subscription in subscriptions { subscription.request(.unlimited) }
    case .cancel(let subscriptions):
      for subscription in subscriptions { subscription.cancel() }
    case .none: break
    }
  }
}
