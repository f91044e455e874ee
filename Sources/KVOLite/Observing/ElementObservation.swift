import Foundation
import KVOLiteLocking

/// An observation of a key of every element of a to-many relationship: `contents.weight`.
///
/// Made of ordinary observations: one of the relationship (`contents`, which may sit at the end
/// of a chain), and one of the key (`weight`, which may be a chain, or another element path) on
/// each element. A change of the relationship re-wires the element observations before it is
/// delivered; a change of an element's key is delivered as a replacement at that element's
/// index. Values are arrays of the elements' values, `[Any?]`:
///
/// - an element's change: ``KeyValueChangeKind/replacement`` at its index, the old and new
///   value of its key;
/// - an insertion, removal or replacement of elements: the same kind and indexes, with the
///   inserted and removed elements' values;
/// - the relationship set as a whole: ``KeyValueChangeKind/setting``, every element's value.
///
/// Thread-safe: the element observations are behind a lock, which no handler runs under; an
/// element's index is the one it has when its change is delivered.
final class ElementObservation: Observation, @unchecked Sendable {
  // @unchecked: `elements` and `ended` are behind `lock`; the rest is immutable.
  private let lock = Lock()
  /// Each element, with the observation of its key, in the relationship's order.
  private var elements: [(object: ObjectIdentifier, token: ObservationToken)] = []
  private var ended = false
  private var relationship: ObservationToken?
  /// The observed object: once it is gone, the element observations deliver nothing more, as
  /// every observation of a released object ends.
  private weak var root: AnyObject?
  private let rest: String
  private let options: ObservingOptions
  private let handler: (KeyValueChange<Any?>) -> Void

  /// Where `keyPath` of `table` passes through a to-many relationship with neither an index nor
  /// an operator after it: the path to the relationship, and the rest, which must be a path of
  /// the elements' type (checked, so that a mistake throws at registration, elements or not).
  static func split(_ keyPath: String, in table: KeyTable) throws(KeyValueError) -> (
    relationship: String, rest: String
  )? {
    let names = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    var table = table
    for (position, name) in names.enumerated().dropLast() {
      guard let index = table.indexByName[name] else { return nil }
      let entry = table.entries[index]
      if entry.role == .toMany {
        let next = names[position + 1]
        guard let elementKeys = entry.elementKeys, !next.hasPrefix("@"), Int(next) == nil else {
          return nil
        }
        let rest = names[(position + 1)...].joined(separator: ".")
        try check(rest, in: elementKeys())
        return (names[...position].joined(separator: "."), rest)
      }
      guard let related = entry.relatedKeys else { return nil }
      table = related()
    }
    return nil
  }

  /// Throws what observing `path` on an element of `table` would throw.
  private static func check(_ path: String, in table: KeyTable) throws(KeyValueError) {
    do {
      _ = try table.keyValuePath(path).observedSteps()
    } catch {
      guard case .throughToMany = error, try split(path, in: table) != nil else { throw error }
    }
  }

  private init(
    rest: String, options: ObservingOptions, handler: @escaping (KeyValueChange<Any?>) -> Void
  ) {
    self.rest = rest
    self.options = options
    self.handler = handler
  }

  /// Starts observing `rest` on every element of `relationship` of `root`; `sendInitial`
  /// sends the `.initial` notification, if asked, with the elements' values then.
  static func start(
    on root: some KeyValueObservable, relationship: String, rest: String,
    options: ObservingOptions, handler: @escaping (KeyValueChange<Any?>) -> Void
  ) throws(KeyValueError) -> (token: ObservationToken, sendInitial: () -> Void) {
    let observation = ElementObservation(rest: rest, options: options, handler: handler)
    observation.root = root
    let inner = options.intersection(.prior).union([.old, .new])
    observation.relationship = try root.observe(relationship, options: inner) {
      [weak observation] change in
      observation?.relationshipChanged(change)
    }
    let current = (try? root.value(forKeyPath: relationship)) ?? nil
    let objects = Self.objects(in: current)
    do throws(KeyValueError) {
      // The elements there now are observed with their errors thrown (a key that is not
      // @Observed, found by probing the first), so that a mistake shows at registration.
      try observation.splice(replacing: nil, observed: objects.map(observation.observe))
    } catch {
      observation.invalidate()
      throw error
    }
    let sendInitial = {
      guard options.contains(.initial), observation.lock.withLock({ !observation.ended }) else {
        return
      }
      let current = (try? root.value(forKeyPath: relationship)) ?? nil
      let values: Any?? =
        options.contains(.new) ? .some(observation.values(of: Self.objects(in: current))) : nil
      DeliveryScope.run { handler(KeyValueChange(kind: .setting, newValue: values)) }
    }
    return (ObservationToken(observation), sendInitial)
  }

  override func invalidate() {
    let (tokens, relationship) = lock.withLock {
      ended = true
      defer { elements = [] }
      return (elements.map(\.token), self.relationship)
    }
    relationship?.invalidate()
    for token in tokens { token.invalidate() }
  }

  /// The elements of a relationship's value (an array of observable objects).
  private static func objects(in value: Any?) -> [any KeyValueObservable] {
    (value as? [Any])?.compactMap { $0 as? any KeyValueObservable } ?? []
  }

  /// The values of `rest` of `objects`.
  private func values(of objects: [any KeyValueObservable]) -> [Any?] {
    objects.map { (try? $0.value(forKeyPath: rest)) ?? nil }
  }

  /// Observes `rest` on each of `objects` and puts them at `indexes` (appends them for `nil`),
  /// in place of the elements there if `replacing`; ends the observations it replaces. An
  /// element whose key cannot be observed (an error registration would have thrown for the
  /// elements there then) is left unobserved.
  private func splice(
    replacing removed: IndexSet?, with objects: [any KeyValueObservable],
    at indexes: IndexSet? = nil
  ) {
    splice(replacing: removed, observed: objects.compactMap { try? observe($0) }, at: indexes)
  }

  /// ``splice(replacing:with:at:)`` with the elements already observed (their tokens).
  private func splice(
    replacing removed: IndexSet?, observed: [(ObjectIdentifier, ObservationToken)],
    at indexes: IndexSet? = nil
  ) {
    let dropped: [ObservationToken] = lock.withLock {
      guard !ended else { return observed.map(\.1) }
      var dropped: [ObservationToken] = []
      for index in (removed ?? []).reversed() where elements.indices.contains(index) {
        dropped.append(elements.remove(at: index).token)
      }
      let added = observed.map { (object: $0.0, token: $0.1) }
      if let indexes {
        for (index, element) in zip(indexes, added) where index <= elements.count {
          elements.insert(element, at: index)
        }
      } else {
        elements += added
      }
      return dropped
    }
    for token in dropped { token.invalidate() }  // After unlocking: it may wait for deliveries.
  }

  /// An observation of `rest` on `object` that delivers its changes at the object's index.
  private func observe(_ object: any KeyValueObservable) throws(KeyValueError) -> (
    ObjectIdentifier, ObservationToken
  ) {
    let identifier = ObjectIdentifier(object)
    let inner = options.intersection([.old, .new, .prior])
    let token = try object.observe(rest, options: inner) { [weak self] change in
      guard let self, self.root != nil,
        let index = self.lock.withLock({ self.elements.firstIndex { $0.object == identifier } })
      else { return }
      self.handler(
        KeyValueChange(
          kind: .replacement, oldValue: change.oldValue.map { [$0] as Any? },
          newValue: change.newValue.map { [$0] as Any? }, indexes: IndexSet(integer: index),
          isPrior: change.isPrior))
    }
    return (identifier, token)
  }

  /// Re-wires after a change of the relationship, then delivers it with the elements' values.
  private func relationshipChanged(_ change: KeyValueChange<Any?>) {
    let old = Self.objects(in: change.oldValue ?? nil)
    let new = Self.objects(in: change.newValue ?? nil)
    if !change.isPrior {
      switch change.kind {
      case .setting: splice(replacing: lock.withLock { IndexSet(elements.indices) }, with: new)
      case .insertion: splice(replacing: nil, with: new, at: change.indexes)
      case .removal: splice(replacing: change.indexes, observed: [])
      case .replacement: splice(replacing: change.indexes, with: new, at: change.indexes)
      }
    }
    handler(
      KeyValueChange(
        kind: change.kind, oldValue: options.contains(.old) ? .some(values(of: old)) : nil,
        newValue: options.contains(.new) && !change.isPrior ? .some(values(of: new)) : nil,
        indexes: change.indexes, isPrior: change.isPrior))
  }
}
