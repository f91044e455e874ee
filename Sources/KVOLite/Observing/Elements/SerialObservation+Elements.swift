import Foundation

/// How a ``SerialObservation`` follows its relationships: what a changing thread reads, and how
/// the thread taking changes watches the elements.
extension SerialObservation {
  /// Observes followed relationship `membership` of `root`: each change is reserved, then the
  /// relationship is read on the changing thread (see ``SerialObservation``).
  func follow<Root: KeyValueObservable>(
    _ membership: Int, of root: Root, options: ObservingOptions
  ) throws(KeyValueError) {
    let relationship = lock.withLock { memberships[membership].relationship }
    let options = options.union(.takesChangesInFlight)
    let token = try root.observe(relationship, options: options) { [weak self] change in
      self?.relationshipChanged(membership, change)
    }
    keep(token)
  }

  private func relationshipChanged(_ membership: Int, _ change: KeyValueChange<Any?>) {
    guard let place = reserve() else { return }
    // Read after reserving: a later change reserves later, so it reads later too.
    let snapshot = change.isPrior ? nil : read(membership)
    let inserted = ((change.newValue ?? nil) as? [Any])?.map { ObjectIdentifier($0 as AnyObject) }
    fill(
      place,
      with: .relationship(
        membership: membership, kind: change.kind, indexes: change.indexes,
        inserted: inserted ?? [], isPrior: change.isPrior, snapshot: snapshot))
  }

  /// Relationship `membership` as it is now, read on the calling thread: the one that changed
  /// it, so that a relationship kept by indexed accessors is read where its owner serializes
  /// its changes (see ``IndexedAccessors``).
  func read(_ membership: Int) -> ElementSnapshot {
    let (path, countPath) = lock.withLock {
      (memberships[membership].path, memberships[membership].countPath)
    }
    guard let root else { return ElementSnapshot() }
    if let countPath {
      guard let count = (try? countPath.value(of: root)) ?? nil else { return ElementSnapshot() }
      return ElementSnapshot(isPresent: true, count: count as? Int ?? 0)
    }
    guard let value = (try? path.value(of: root)) ?? nil else { return ElementSnapshot() }
    let objects = (value as? [Any])?.compactMap { $0 as? any KeyValueObservable } ?? []
    return ElementSnapshot(isPresent: true, count: objects.count, objects: objects)
  }

  /// Reads every followed relationship and watches its elements, at the start. Changes heard
  /// of before are dropped: this reads the model after them.
  ///
  /// - Throws: the error of observing the followed key on an element there now (a key that is
  ///   not ``Observed``), so that a mistake shows at registration.
  func takeElements() throws(KeyValueError) {
    dropPending()
    for membership in lock.withLock({ memberships.indices }) {
      let snapshot = read(membership)
      let unwatched = lock.withLock { memberships[membership].unwatched(in: snapshot) }
      var fresh: [ElementMembership.Fresh] = []
      for element in unwatched {
        let token = try watch(element, membership)
        fresh.append(.init(object: element, token: token, value: value(of: element, membership)))
      }
      let ended = lock.withLock { memberships[membership].take(snapshot, fresh: fresh).ended }
      for token in ended { token.invalidate() }
    }
  }

  /// Takes `snapshot` as relationship `membership`'s elements, on the thread taking changes:
  /// watches the new elements (then reads their values) and ends the observations of those
  /// that left. Returns the members before and after, and whether their identities can be
  /// compared (see ``ElementMembership/take(_:fresh:)``); `nil` once the observation ended.
  func update(_ membership: Int, to snapshot: ElementSnapshot) -> (
    old: [ElementMembership.Member], new: [ElementMembership.Member], comparable: Bool
  )? {
    let unwatched = lock.withLock { memberships[membership].unwatched(in: snapshot) }
    var fresh: [ElementMembership.Fresh] = []
    for element in unwatched {
      // An element whose key cannot be observed is followed through the relationship only.
      let token = try? watch(element, membership)
      fresh.append(
        .init(object: element, token: token ?? nil, value: value(of: element, membership)))
    }
    typealias Members = (
      old: [ElementMembership.Member], new: [ElementMembership.Member], comparable: Bool
    )
    let taken = lock.withLock { () -> (Members, [ObservationToken])? in
      guard !isEnded else { return nil }
      let (old, ended, reusesIdentity) = memberships[membership].take(snapshot, fresh: fresh)
      return ((old, memberships[membership].members, !reusesIdentity), ended)
    }
    // The fresh observations end with `fresh` if the observation ended.
    guard let (members, ended) = taken else { return nil }
    for token in ended { token.invalidate() }
    return members
  }

  /// Element `id` of relationship `membership` after a change of its followed key: its places
  /// and the values there before, and its value now (read here, if values are kept). `nil` if
  /// it is no longer an element, or the observation ended.
  func elementChanged(_ membership: Int, _ id: ObjectIdentifier) -> (
    places: [Int], old: [Any?], new: Any?
  )? {
    guard let element = lock.withLock({ memberships[membership].element(id) }) else { return nil }
    let value = value(of: element, membership)
    let changed = lock.withLock { isEnded ? nil : memberships[membership].setValue(value, of: id) }
    guard let changed, !changed.places.isEmpty else { return nil }
    return (changed.places, changed.old, value)
  }

  /// Observes the followed key of `element` for relationship `membership`; `nil` for a key
  /// that is read-only (it never changes), where ``acceptsReadOnlyKeys``.
  private func watch(_ element: any KeyValueObservable, _ membership: Int)
    throws(KeyValueError) -> ObservationToken?
  {
    guard let rest = lock.withLock({ memberships[membership].rest }) else { return nil }
    let id = ObjectIdentifier(element)
    do {
      return try element.observe(rest, options: elementOptions) { [weak self] change in
        self?.submit(.element(membership: membership, id: id, isPrior: change.isPrior))
      }
    } catch {
      if acceptsReadOnlyKeys, ElementPath.isReadOnly(error, along: rest, of: element) { return nil }
      throw error
    }
  }

  /// The followed key's value on `element`, if values are kept.
  private func value(of element: any KeyValueObservable, _ membership: Int) -> Any? {
    let (rest, keepsValues) = lock.withLock {
      (memberships[membership].rest, memberships[membership].keepsValues)
    }
    guard keepsValues, let rest else { return nil }
    return (try? element.value(forKeyPath: rest)) ?? nil
  }
}
