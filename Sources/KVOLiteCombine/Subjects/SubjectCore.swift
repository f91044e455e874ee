import KVOLiteLocking

/// The state shared by the subjects, `@Published` and `objectWillChange`: the subscribers'
/// conduits, the completion, the upstream subscriptions and, for current-value kinds, the value.
///
/// Thread-safe: the state is behind `lock`, and nothing is called with it held. Each conduit
/// delivers to its subscriber one event at a time (see ``SubjectConduit``).
///
/// The conduits are kept in subscription order, in an array that a send copies (one retain)
/// under the lock and iterates after unlocking, so a subscription or a cancel on another thread
/// never changes what a send in flight iterates. A cancelled conduit is taken out of the array
/// at once, by the position it keeps (its slot is emptied; nothing is searched or shifted), so
/// the subject keeps nothing of it: the conduit is freed as soon as its subscriber lets go of
/// it, as in Combine. Once empty slots are half the array, the array is compacted (and the
/// positions renumbered). Each cancel costs O(1) amortized, so cancelling n subscriptions in
/// any order costs O(n); a cancel while a send iterates the array copies it once for that send
/// (a cost no larger than the send's).
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
  /// The live conduits, each at its ``SubjectConduitBase/position``; `nil` where one was
  /// cancelled.
  @exclusivity(unchecked) @usableFromInline var conduits = ContiguousArray<
    SubjectConduitBase<Output, Failure>?
  >()
  /// How many of `conduits` are `nil`.
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
    conduit.position = conduits.count
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
    for conduit in targets { conduit?.offer(value) }
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
    for conduit in targets { conduit?.finish(newCompletion) }
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

  /// Takes `conduit`, cancelled, out of the list (unless the subject has completed, which
  /// emptied the list), and compacts the list once empty slots are half of it. Call without
  /// `lock`; the caller keeps `conduit` alive, so no release here runs a `deinit`.
  @usableFromInline func remove(_ conduit: SubjectConduitBase<Output, Failure>) {
    lock.withLock {
      let position = conduit.position
      guard position < conduits.count, conduits[position] === conduit else { return }
      conduits[position] = nil
      ended += 1
      guard conduits.count >= 16, ended * 2 > conduits.count else { return }
      var live = ContiguousArray<SubjectConduitBase<Output, Failure>?>()
      live.reserveCapacity(conduits.count - ended)
      for case let conduit? in conduits {
        conduit.position = live.count
        live.append(conduit)
      }
      conduits = live
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
