import KVOLiteLocking

/// The state shared by the subjects, `@Published` and `objectWillChange`: the subscribers'
/// conduits, the completion, the upstream subscriptions and, for current-value kinds, the value.
///
/// Thread-safe: the state is behind `lock`, and nothing is called with it held. Each conduit
/// delivers to its subscriber one event at a time (see ``SubjectConduit``).
///
/// The conduits are kept in subscription order, in an array that is only ever appended to or
/// replaced: a send iterates the array it copied (one retain) under the lock, so a
/// subscription or a cancel on another thread never changes what a send in flight iterates. A
/// cancelled conduit is not searched for: it stays in the array, ended (a send skips it), and is
/// only counted; once ended conduits are half the array, they are removed from it. Each cancel costs O(1) amortized, so cancelling n subscriptions in any
/// order costs O(n) (it was O(n²): each cancel searched the array and shifted its tail). The
/// compaction asks each conduit whether it is live under the conduit's lock, with this lock
/// held: the one place the two nest, in this order (a conduit never takes this lock while it
/// holds its own).
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`.

  /// How the subject treats values and demand.
  @usableFromInline enum Kind: Sendable {
    /// `PassthroughSubject`: keeps no value; asks its upstreams for values once a subscriber
    /// has asked.
    case passthrough
    /// `CurrentValueSubject`: stores, then sends; a new subscriber gets the current value on
    /// its first request; asks its upstreams for values at once.
    case currentValue
    /// `@Published`: sends (in willSet), then stores; otherwise like `currentValue`.
    case published
    /// `ObservableObjectPublisher`: delivers every value, whatever the demand.
    case ignoresDemand

    @inlinable var hasValue: Bool { self == .currentValue || self == .published }
  }

  @usableFromInline let kind: Kind
  /// The description of its subscriptions: "PassthroughSubject", "CurrentValueSubject", …
  @usableFromInline let name: String
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var conduits = ContiguousArray<
    SubjectConduitBase<Output, Failure>
  >()
  /// How many of `conduits` have been cancelled (an overestimate after a compaction that ran
  /// while one was being cancelled; the next compaction recounts).
  @exclusivity(unchecked) @usableFromInline var ended = 0
  @exclusivity(unchecked) @usableFromInline var completion: Subscribers.Completion<Failure>?
  @exclusivity(unchecked) @usableFromInline var upstreams: [any Subscription] = []
  @exclusivity(unchecked) @usableFromInline var hasDownstreamDemand = false
  @exclusivity(unchecked) @usableFromInline var current: Output?

  @inlinable init(kind: Kind, name: String, current: Output? = nil) {
    self.kind = kind
    self.name = name
    self.current = current
  }

  /// The current value (current-value kinds only).
  @inlinable var value: Output { lock.withLock { current! } }

  /// Attaches `subscriber`; its conduit keeps `owner` (the subject) alive until it ends.
  @inlinable func subscribe<S: Subscriber>(_ subscriber: S, owner: AnyObject)
  where S.Input == Output, S.Failure == Failure {
    lock.lock()
    if let completion {
      lock.unlock()
      subscriber.receive(subscription: Subscriptions.empty)
      subscriber.receive(completion: completion)
      return
    }
    let conduit = SubjectConduit(core: self, owner: owner, downstream: subscriber)
    conduits.append(conduit)
    lock.unlock()
    subscriber.receive(subscription: conduit)
  }

  /// Sends `value` to every conduit (current-value kinds store it, before or after as their
  /// kind says). Nothing happens after completion.
  @inlinable func send(_ value: Output) {
    lock.lock()
    guard completion == nil else { return lock.unlock() }
    if kind == .currentValue { current = value }
    let targets = conduits
    lock.unlock()
    for conduit in targets { conduit.offer(value) }
    if kind == .published { lock.withLock { current = value } }
  }

  /// Stores `value` without sending it (a current-value subject's `value` set after completion).
  @inlinable func store(_ value: Output) {
    lock.withLock { current = value }
  }

  /// Whether the subject has completed.
  @inlinable var isCompleted: Bool { lock.withLock { completion != nil } }

  @inlinable func send(completion newCompletion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard completion == nil else { return lock.unlock() }
    completion = newCompletion
    let targets = conduits
    conduits = []
    ended = 0
    lock.unlock()
    for conduit in targets { conduit.finish(newCompletion) }
  }

  /// Keeps an upstream subscription; asks it for values now if a subscriber has already asked
  /// (passthrough) or at once (current-value kinds).
  @inlinable func send(subscription: any Subscription) {
    let request = lock.withLock {
      upstreams.append(subscription)
      return kind != .passthrough || hasDownstreamDemand
    }
    if request { subscription.request(.unlimited) }
  }

  /// A subscriber asked for values: the first time, a passthrough subject asks its upstreams.
  @inlinable func acknowledgeDemand() {
    guard kind == .passthrough else { return }
    let targets = lock.withLock { () -> [any Subscription] in
      guard !hasDownstreamDemand else { return [] }
      hasDownstreamDemand = true
      return upstreams
    }
    for subscription in targets { subscription.request(.unlimited) }
  }

  /// A conduit was cancelled: counts it, and drops the ended conduits once they are half of
  /// the list.
  ///
  /// In place when no send iterates the list (otherwise the array is copied first): a large
  /// allocation on every compaction made the allocator consolidate every small block freed by
  /// the cancels so far. An ended conduit holds nothing of its subscriber's or the subject's
  /// (see ``SubjectConduit``), so dropping it here, with the lock held, runs no code but
  /// KVOLite's freeing its own memory.
  @usableFromInline func noteEnded() {
    lock.withLock {
      guard completion == nil else { return }
      ended += 1
      guard conduits.count >= 16, ended * 2 > conduits.count else { return }
      conduits.removeAll { !$0.isLive }
      ended = 0
    }
  }

  /// Cancels the upstream subscriptions: the subject is being released.
  @usableFromInline func cancelUpstreams() {
    let targets = lock.withLock {
      defer { upstreams = [] }
      return upstreams
    }
    for subscription in targets { subscription.cancel() }
  }
}
