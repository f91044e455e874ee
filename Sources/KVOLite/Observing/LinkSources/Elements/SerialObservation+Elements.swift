import Foundation
import KVOLiteLocking

/// How a ``SerialObservation`` follows its relationships: what a changing thread reads, and how
/// the thread taking changes watches the elements.
extension SerialObservation {
  /// Observes followed relationship `membership` of `root`: each change is reserved, then the
  /// relationship is read on the changing thread (see ``SerialObservation``), unless the change
  /// can be taken as it was made (see ``SerialObservationStateMachine/Windows``: the prior notifications are asked for
  /// that, and handed on only if `options` asks them).
  func follow<Root: KeyValueObservable>(
    _ membership: Int, of root: Root, options: ObservingOptions
  ) throws(KeyValueError) {
    let relationship = lock.withLock { memberships[membership].relationship }
    let handsOnPrior = options.contains(.prior)
    let options = options.union([.takesChangesInFlight, .prior])
    let token = try root.observe(relationship, options: options) { [weak self] change in
      self?.relationshipChanged(membership, change, handsOnPrior: handsOnPrior)
    }
    keep(token)
  }

  private func relationshipChanged(
    _ membership: Int, _ change: KeyValueChange<Any?>, handsOnPrior: Bool
  ) {
    let thread = ThreadIdentity.current
    let inserted = ((change.newValue ?? nil) as? [Any]) ?? []
    let objects = inserted.compactMap { $0 as? any KeyValueObservable }
    let ids = inserted.map { ObjectIdentifier($0 as AnyObject) }
    if change.isPrior {
      guard case .fill(let place) = run({ $0.priorNotification(on: thread, handsOn: handsOnPrior) })
      else { return }
      return fill(
        place,
        with: .relationship(
          membership: membership, kind: change.kind, indexes: change.indexes, inserted: ids,
          isPrior: true, snapshot: nil))
    }
    // A change that can be taken as it was made carries its elements, all observable.
    let takenAsMade =
      change.kind != .setting && change.indexes != nil && objects.count == inserted.count
    switch run({ $0.notification(on: thread, canTakeAsMade: takenAsMade) }) {
    case .takeAsMade(let place):
      fill(
        place,
        with: .relationship(
          membership: membership, kind: change.kind, indexes: change.indexes, inserted: ids,
          isPrior: false, snapshot: nil, objects: objects))
    case .readAgain(let place):
      // Read after reserving: a later change reserves later, so it reads later too. The window
      // closes once read: a change made meanwhile is read again too.
      let snapshot = read(membership)
      run { $0.readDone() }
      fill(
        place,
        with: .relationship(
          membership: membership, kind: change.kind, indexes: change.indexes, inserted: ids,
          isPrior: false, snapshot: snapshot))
    default:
      break
    }
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
      let fresh = try watchNew(snapshot.objects, membership, throwing: true)
      let ended = lock.withLock { memberships[membership].take(snapshot, fresh: fresh).ended }
      for token in ended { token.invalidate() }
    }
  }

  /// Takes `snapshot` as relationship `membership`'s elements, on the thread taking changes:
  /// watches the new elements (then reads their values) and ends the observations of those
  /// that left. Returns the members before and after (none unless `wantsMembers`), and whether
  /// their identities can be compared (see ``ElementMembership/take(_:fresh:keepingOld:)``);
  /// `nil` once the observation ended.
  func update(_ membership: Int, to snapshot: ElementSnapshot, wantsMembers: Bool = true) -> (
    old: [ElementMembership.Member], new: [ElementMembership.Member], comparable: Bool
  )? {
    let fresh = try! watchNew(snapshot.objects, membership)
    typealias Members = (
      old: [ElementMembership.Member], new: [ElementMembership.Member], comparable: Bool
    )
    let taken = lock.withLock { () -> (Members, [ObservationToken])? in
      guard !isEnded else { return nil }
      let (old, ended, reusesIdentity) = memberships[membership].take(
        snapshot, fresh: fresh, keepingOld: wantsMembers)
      let new = wantsMembers ? memberships[membership].members : []
      return ((old, new, !reusesIdentity), ended)
    }
    // The fresh observations end with `fresh` if the observation ended.
    guard let (members, ended) = taken else { return nil }
    for token in ended { token.invalidate() }
    return members
  }

  /// Applies a change of relationship `membership` taken as it was made (see
  /// ``SerialObservationStateMachine/Windows``), on the thread taking changes: watches the elements it put in place
  /// that are new (then reads their values), and ends the observations of those that left.
  /// Returns the values at `indexes` before and after (see
  /// ``ElementMembership/apply(_:at:inserted:fresh:)``); `nil` if it does not fit the members,
  /// or the observation ended.
  func applyAsMade(
    _ membership: Int, _ kind: KeyValueChangeKind, at indexes: IndexSet,
    objects: [any KeyValueObservable]
  ) -> (old: [Any?], new: [Any?])? {
    let fresh = try! watchNew(objects, membership)
    let ids = objects.map { ObjectIdentifier($0) }
    let applied = lock.withLock {
      isEnded ? nil : memberships[membership].apply(kind, at: indexes, inserted: ids, fresh: fresh)
    }
    guard let applied else {
      // Not applied: the fresh observations end, and the next change is read again.
      run { $0.lostTrack() }
      for element in fresh { element.token?.invalidate() }
      return nil
    }
    for token in applied.ended { token.invalidate() }
    return (applied.old, applied.new)
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

  /// Watches the elements of `objects` that relationship `membership` does not watch yet, then
  /// reads their values. An element whose key cannot be observed is followed through the
  /// relationship only, unless `throwing` (at the start, so that a mistake shows at
  /// registration).
  private func watchNew(
    _ objects: [any KeyValueObservable], _ membership: Int, throwing: Bool = false
  ) throws(KeyValueError) -> [ElementMembership.Fresh] {
    var fresh: [ElementMembership.Fresh] = []
    for element in lock.withLock({ memberships[membership].unwatched(in: objects) }) {
      let token: ObservationToken?
      do {
        token = try watch(element, membership)
      } catch  where !throwing {
        token = nil
      }
      fresh.append(.init(object: element, token: token, value: value(of: element, membership)))
    }
    return fresh
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
