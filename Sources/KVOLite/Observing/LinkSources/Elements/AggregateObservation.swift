import Foundation

/// An observation whose value depends on a key of every element of a to-many relationship: a
/// collection operator (`books.@sum.pages`, and `books.@count`, which depends on the count
/// only), or a derived key that such a path affects (`totalPages`, affected by `books.pages`
/// or `books.@sum.pages`).
///
/// It follows the key on the elements of each relationship (see ``SerialObservation``), and
/// hears of changes of every other path the value depends on — the relationships and the
/// objects on the way to them among them — through one ``LinksObservation``, so that one change
/// of them is one notification; a relationship is read again after each. An operator over a
/// chain of stored keys (`items.@sum.weight`, not `@count`) follows its relationship instead,
/// as an ``ElementObservation`` does: an insertion, removal or replacement of elements is taken
/// as it was made (see ``SerialObservationStateMachine/Windows``), and the value computed once per change. Whatever
/// changes, it delivers a ``KeyValueChangeKind/setting`` of whole values: `new`
/// computed when the change is taken, `old` the value delivered last (the value when the
/// observation began, at first), so each old value is the previous new one. Once the threads
/// changing the model are done, the last value delivered is the model's.
///
/// An operator's value is computed from the elements' values the observation keeps, never by
/// reading the relationship on a thread that did not change it (see ``IndexedAccessors``); a
/// derived key's value is its getter's. A read-only element key (a `let`) never changes: it is
/// followed through the relationship only.
final class AggregateObservation<Root: KeyValueObservable, Value>: SerialObservation,
  @unchecked Sendable
{
  // @unchecked: `last` is behind the lock; `others` is set before any change is taken.
  /// Computes the value, from the root and (for an operator) the memberships.
  private let compute: (Root, [ElementMembership]) -> Value
  private let usesMembers: Bool
  private let handler: (Root, KeyValueChange<Value>) -> Void
  private let wantsOld: Bool
  private let wantsNew: Bool
  /// The value delivered last. Guarded by the lock.
  private var last: Value?
  /// The observation of the paths the value depends on, but for the element keys: re-wired
  /// after a change of elements, which may change where a derived to-one leads. `nil` when
  /// the operator's relationship is followed (``followsRelationship``).
  private var others: TypedLinksObservation<Root, Value>?
  /// Whether the operator's relationship is followed as an element observation follows it
  /// (its changes taken as made), rather than heard of as another path and read again. Set
  /// before any change is taken.
  private var followsRelationship = false

  override var acceptsReadOnlyKeys: Bool { true }

  private init(
    root: Root, memberships: [ElementMembership], options: ObservingOptions,
    usesMembers: Bool, compute: @escaping (Root, [ElementMembership]) -> Value,
    handler: @escaping (Root, KeyValueChange<Value>) -> Void
  ) {
    self.compute = compute
    self.usesMembers = usesMembers
    self.handler = handler
    wantsOld = options.contains(.old)
    wantsNew = options.contains(.new)
    super.init(root: root, memberships: memberships, options: options)
  }

  /// Starts observing `steps` (see ``DependencyExpansion``, whose result for them is
  /// `expansion`): a derived key (or a chain ending in one) read by `read`, or, with
  /// `operator`, the to-many relationship they lead to, followed by a collection operator over
  /// key path `rest` of its elements (`nil` for `@count`), in a string key path `path`. Call
  /// `sendInitial` next, always: it computes the first value and sends the `.initial` notification
  /// if asked (nothing once the token ended), then delivers the changes heard of since the
  /// start, which wait for it.
  static func start(
    on root: Root, steps: [KeyStep], expansion: DependencyExpansion,
    operator: (op: CollectionOperator, rest: String?, path: String)?, options: ObservingOptions,
    read: @escaping (Root) -> Value, handler: @escaping (Root, KeyValueChange<Value>) -> Void
  ) throws(KeyValueError) -> (token: ObservationToken, sendInitial: () -> Void) {
    let table = KeyTable.of(root)
    var memberships: [ElementMembership] = []
    if let (op, rest, _) = `operator` {
      memberships.append(
        try ElementMembership(
          relationship: steps.map(\.entry.name).joined(separator: "."), in: table,
          rest: op == .count ? nil : rest, keepsValues: true))
    }
    for (relationship, rest) in expansion.elements {
      memberships.append(
        try ElementMembership(relationship: relationship, in: table, rest: rest, keepsValues: false)
      )
    }
    let compute: (Root, [ElementMembership]) -> Value
    if let (op, _, path) = `operator` {
      compute = { _, memberships in Self.apply(op, to: memberships[0], path: path) }
    } else {
      compute = { root, _ in read(root) }
    }
    let observation = AggregateObservation(
      root: root, memberships: memberships, options: options, usesMembers: `operator` != nil,
      compute: compute, handler: handler)
    observation.beginStart()
    do {
      if let (op, _, _) = `operator`, op != .count, expansion.elements.isEmpty,
        expansion.branches.count == 1, expansion.wiringFrom == 1,
        steps.allSatisfy({ $0.entry.role != .derived })
      {
        // An operator over the elements of a chain of stored keys (`items.@sum.weight`): the
        // relationship is followed as an element observation follows it, so that an insertion
        // or a removal is taken as it was made (see ``SerialObservationStateMachine/Windows``), in O(changed
        // elements), and the value is computed once per change.
        observation.followsRelationship = true
        try observation.follow(0, of: root, options: options.intersection(.prior).union(.new))
        try observation.takeElements()
        return (ObservationToken(observation), { observation.begin(options) })
      }
      let others = TypedLinksObservation<Root, Value>(
        root: root,
        plan: LinksPlan(
          branches: expansion.branches, wiringFrom: expansion.wiringFrom, isExactToMany: false,
          readsValues: true, readers: expansion.readers, unobservable: nil),
        options: options.intersection(.prior).union(.takesChangesInFlight), read: read,
        elements: { $0 as! Value },
        handler: { [weak observation] _, change in observation?.heard(isPrior: change.isPrior) })
      observation.keep(ObservationToken(others))
      observation.others = others
      try others.start()
      try observation.takeElements()
    } catch {
      observation.invalidate()
      throw error
    }
    return (ObservationToken(observation), { observation.begin(options) })
  }

  /// `op` over the values of `elements` (the operator's relationship); `nil` where a `nil`
  /// relationship cuts the path.
  private static func apply(
    _ op: CollectionOperator, to elements: ElementMembership, path: String
  ) -> Value {
    let result: Any? =
      !elements.isPresent
      ? nil
      : op == .count
        ? elements.count : (try? op.apply(to: elements.values, path: path)).flatMap(KeyEntry.box)
    return result as! Value
  }

  /// A change of a path that affects the value (the relationships themselves among them), on
  /// the changing thread: reserved, then every followed relationship read.
  private func heard(isPrior: Bool) {
    guard let place = reserve() else { return }
    let snapshots = isPrior ? nil : lock.withLock { memberships.indices }.map(read)
    fill(place, with: .other(isPrior: isPrior, snapshots: snapshots))
  }

  /// Ends the start: computes the first value and delivers it if `.initial` asks, then takes
  /// the changes heard of meanwhile.
  private func begin(_ options: ObservingOptions) {
    if let object = root {
      let root = unsafeDowncast(object, to: Root.self)
      let value = compute(root, usesMembers ? lock.withLock { memberships } : [])
      lock.withLock { last = value }
      if options.contains(.initial) {
        let change = KeyValueChange(kind: .setting, newValue: wantsNew ? value : nil)
        call { handler(root, change) }
      }
    }
    finishStart()
  }

  override func process(_ change: FollowedChange) {
    // Every observation of a released object ends.
    guard let object = root else { return invalidate() }
    let root = unsafeDowncast(object, to: Root.self)
    let isPrior: Bool
    switch change {
    case .relationship(
      let membership, let kind, let indexes, _, let prior, let snapshot, let objects):
      // Unless followed, relationships are heard of as other paths.
      guard followsRelationship else { return }
      isPrior = prior
      if !prior {
        if let snapshot {
          guard update(membership, to: snapshot, wantsMembers: false) != nil else { return }
        } else {
          // Nothing if the change does not fit the members (the windows then read the next
          // change again), as for an element observation.
          guard let indexes, applyAsMade(membership, kind, at: indexes, objects: objects) != nil
          else { return }
        }
      }
    case .element(let membership, let id, let prior):
      isPrior = prior
      if prior {
        guard lock.withLock({ !memberships[membership].places(of: id).isEmpty }) else { return }
      } else {
        guard elementChanged(membership, id) != nil else { return }
        rewireOthers()
      }
    case .other(let prior, let snapshots):
      isPrior = prior
      for (membership, snapshot) in (snapshots ?? []).enumerated() {
        guard update(membership, to: snapshot, wantsMembers: false) != nil else { return }
      }
    }
    if isPrior {
      let old = wantsOld ? lock.withLock { last } : nil
      return call { handler(root, KeyValueChange(kind: .setting, oldValue: old, isPrior: true)) }
    }
    let value = compute(root, usesMembers ? lock.withLock { memberships } : [])
    let old = lock.withLock { () -> Value? in
      defer { last = value }
      return last
    }
    call {
      handler(
        root,
        KeyValueChange(
          kind: .setting, oldValue: wantsOld ? old : nil, newValue: wantsNew ? value : nil))
    }
  }

  /// Re-wires the other paths after a change of elements, if a derived to-one along them
  /// decides where they lead (its value may depend on the elements).
  private func rewireOthers() {
    others?.relinkIfWired()
  }
}
