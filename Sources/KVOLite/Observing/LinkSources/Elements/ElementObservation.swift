import Foundation

/// An observation of a key of every element of a to-many relationship: `contents.weight`.
///
/// It follows the relationship (which may sit at the end of a chain) and the key (which may be
/// a chain, or another element path) on each distinct element, and takes what it hears of one
/// change at a time (see ``SerialObservation``). Values are arrays with one value per place
/// in the relationship, `[Any?]`:
///
/// - a change of an element's key: ``KeyValueChangeKind/replacement`` at every place the
///   element has (an element present twice is reported at both places, in one change, as
///   Foundation reports a replacement at several indexes), with the old and new value at each;
/// - an insertion, removal or replacement of elements: the same kind and indexes, with the
///   inserted or replacing elements' values as `new` and the removed or replaced ones' as `old`
///   (`old` absent for an insertion, `new` for a removal, as for the relationship itself);
/// - the relationship set as a whole: ``KeyValueChangeKind/setting``, every value.
///
/// Each change is stated against the ones delivered before it: its indexes are places in the
/// array those changes describe, and its old values are the values they delivered there. When
/// changes made on other threads overtake one (its indexes were counted against an array the
/// observer has not been told of yet), it is delivered as a setting of every value instead.
/// Once the threads changing the model are done, the array the changes describe is the
/// model's.
final class ElementObservation: SerialObservation, @unchecked Sendable {
  private let wantsOld: Bool
  private let wantsNew: Bool
  private let handler: (KeyValueChange<Any?>) -> Void

  private init(
    root: AnyObject, membership: ElementMembership, options: ObservingOptions,
    handler: @escaping (KeyValueChange<Any?>) -> Void
  ) {
    wantsOld = options.contains(.old)
    wantsNew = options.contains(.new)
    self.handler = handler
    super.init(root: root, memberships: [membership], options: options)
  }

  /// Starts observing `rest` on every element of `relationship` of `root`. Call `sendInitial`
  /// next, always: it sends the `.initial` notification if asked (nothing once the token ended), then
  /// delivers the changes heard of since the start, which wait for it.
  ///
  /// - Throws: the error of observing `rest` on an element there now.
  static func start<Root: KeyValueObservable>(
    on root: Root, relationship: String, rest: String, options: ObservingOptions,
    handler: @escaping (KeyValueChange<Any?>) -> Void
  ) throws(KeyValueError) -> (token: ObservationToken, sendInitial: () -> Void) {
    let membership = try ElementMembership(
      relationship: relationship, in: KeyTable.of(root), rest: rest,
      keepsValues: !options.isDisjoint(with: [.old, .new]))
    let observation = ElementObservation(
      root: root, membership: membership, options: options, handler: handler)
    observation.beginStart()
    do {
      try observation.follow(0, of: root, options: options.intersection(.prior).union(.new))
      try observation.takeElements()
    } catch {
      observation.invalidate()
      throw error
    }
    let begin = {
      if options.contains(.initial) {
        let values = observation.lock.withLock { observation.memberships[0].values }
        let new: Any?? = options.contains(.new) ? .some(values) : nil
        observation.call { handler(KeyValueChange(kind: .setting, newValue: new)) }
      }
      observation.finishStart()
    }
    return (ObservationToken(observation), begin)
  }

  override func process(_ change: FollowedChange) {
    // Every observation of a released object ends. Held while the change is taken, so that
    // nothing is delivered once its release has begun.
    guard let root else { return invalidate() }
    withExtendedLifetime(root) { deliver(change) }
  }

  private func deliver(_ change: FollowedChange) {
    switch change {
    case .relationship(
      _, let kind, let indexes, let inserted, let isPrior, let snapshot, let objects):
      if isPrior { return relationshipWillChange(kind, indexes) }
      guard let snapshot else {
        if let indexes { relationshipDidChange(asMade: kind, indexes, objects) }
        return
      }
      guard let (old, new, comparable) = update(0, to: snapshot) else { return }
      relationshipDidChange(comparable ? kind : .setting, indexes, inserted, old: old, new: new)
    case .element(_, let id, true):
      let (places, values) = lock.withLock {
        (memberships[0].places(of: id), memberships[0].values)
      }
      guard !places.isEmpty else { return }
      let old: Any?? = wantsOld ? .some(places.map { values[$0] }) : nil
      call {
        handler(
          KeyValueChange(
            kind: .replacement, oldValue: old, indexes: IndexSet(places), isPrior: true)
        )
      }
    case .element(_, let id, false):
      guard let (places, oldValues, value) = elementChanged(0, id) else { return }
      let old: Any?? = wantsOld ? .some(oldValues) : nil
      let new: Any?? = wantsNew ? .some(Array(repeating: value, count: places.count)) : nil
      call {
        handler(
          KeyValueChange(
            kind: .replacement, oldValue: old, newValue: new, indexes: IndexSet(places)))
      }
    case .other:
      break
    }
  }

  /// The prior notification of a change of the relationship, against the values delivered.
  private func relationshipWillChange(_ kind: KeyValueChangeKind, _ indexes: IndexSet?) {
    // O(changed elements) when the change fits: the values at its indexes only.
    let (fits, values) = lock.withLock { () -> (Bool, [Any?]?) in
      let membership = memberships[0]
      guard let indexes, membership.fits(kind, at: indexes, inserted: indexes.count) else {
        return (false, wantsOld ? membership.values : nil)
      }
      return (true, wantsOld && kind != .insertion ? indexes.map { membership.value(at: $0) } : nil)
    }
    let old: Any?? = values.map { .some($0) } ?? nil
    guard fits, let indexes else {
      return call { handler(KeyValueChange(kind: .setting, oldValue: old, isPrior: true)) }
    }
    call { handler(KeyValueChange(kind: kind, oldValue: old, indexes: indexes, isPrior: true)) }
  }

  /// Delivers a change of the relationship taken as it was made (see ``SerialObservationStateMachine/Windows``), in
  /// O(changed elements); nothing if it does not fit the members (the windows then read the
  /// next change again).
  private func relationshipDidChange(
    asMade kind: KeyValueChangeKind, _ indexes: IndexSet, _ objects: [any KeyValueObservable]
  ) {
    guard let (oldValues, newValues) = applyAsMade(0, kind, at: indexes, objects: objects) else {
      return
    }
    let old: Any?? = wantsOld && kind != .insertion ? .some(oldValues) : nil
    let new: Any?? = wantsNew && kind != .removal ? .some(newValues) : nil
    call {
      handler(KeyValueChange(kind: kind, oldValue: old, newValue: new, indexes: indexes))
    }
  }

  /// Delivers a change of the relationship: as it was made if it takes the members delivered
  /// (`old`) to the members now (`new`), as a setting otherwise.
  private func relationshipDidChange(
    _ kind: KeyValueChangeKind, _ indexes: IndexSet?, _ inserted: [ObjectIdentifier],
    old: [ElementMembership.Member], new: [ElementMembership.Member]
  ) {
    guard let indexes,
      Self.applying(kind, at: indexes, inserted, to: old.map(\.id)) == new.map(\.id)
    else {
      let oldValues: Any?? = wantsOld ? .some(old.map(\.value)) : nil
      let newValues: Any?? = wantsNew ? .some(new.map(\.value)) : nil
      return call {
        handler(KeyValueChange(kind: .setting, oldValue: oldValues, newValue: newValues))
      }
    }
    let oldValues: Any?? =
      wantsOld && kind != .insertion ? .some(indexes.map { old[$0].value }) : nil
    let newValues: Any?? = wantsNew && kind != .removal ? .some(indexes.map { new[$0].value }) : nil
    call {
      handler(
        KeyValueChange(kind: kind, oldValue: oldValues, newValue: newValues, indexes: indexes))
    }
  }

  /// `ids` after a change of `kind` at `indexes` that put `inserted` in place; `nil` for a
  /// setting, or if the change does not fit `ids`.
  static func applying(
    _ kind: KeyValueChangeKind, at indexes: IndexSet, _ inserted: [ObjectIdentifier],
    to ids: [ObjectIdentifier]
  ) -> [ObjectIdentifier]? {
    var ids = ids
    switch kind {
    case .setting:
      return nil
    case .insertion:
      guard inserted.count == indexes.count else { return nil }
      for (index, id) in zip(indexes, inserted) {
        guard index <= ids.count else { return nil }
        ids.insert(id, at: index)
      }
    case .removal:
      guard indexes.allSatisfy({ $0 < ids.count }) else { return nil }
      for index in indexes.reversed() { ids.remove(at: index) }
    case .replacement:
      guard inserted.count == indexes.count, indexes.allSatisfy({ $0 < ids.count }) else {
        return nil
      }
      for (index, id) in zip(indexes, inserted) { ids[index] = id }
    }
    return ids
  }
}
