import Foundation

/// The elements of one followed to-many relationship, as a ``SerialObservation`` last took them:
/// one member per place in the relationship (an element present twice is two members), and one
/// observation of the followed key per distinct element.
///
/// Plain values, guarded by the observation's lock; the observations it holds are ended by the
/// caller after unlocking.
struct ElementMembership {
  /// The path from the root to the relationship, as observed and as read.
  let relationship: String
  let path: KeyValuePath
  /// The key path followed on each element (`weight`, `label.text`); `nil` when only the number
  /// of elements matters (`@count`).
  let rest: String?
  /// Whether the members keep the followed key's values.
  let keepsValues: Bool
  /// `@count` of the relationship, when only the count matters.
  let countPath: KeyValuePath?
  /// Whether the relationship was there (not cut by a `nil` relationship before it).
  private(set) var isPresent = false
  private(set) var count = 0
  /// The element at each place: one reference per place to its entry in `watched`, which keeps
  /// its value; in blocks (see ``BlockList``), so that an insertion or a removal in the middle
  /// moves one block, not every place after it.
  private var placed = BlockList<Watched>()
  /// The observation of the followed key of each distinct element, by identity, with its value
  /// and its number of places; the element weakly, so that an element released meanwhile is
  /// never taken for a new one at its address.
  private var watched: [ObjectIdentifier: Watched] = [:]
  /// Counts the relationship's readings taken, to mark the elements found in place.
  private var readings = 0

  /// An element at a place, with the followed key's value it had then.
  struct Member {
    let id: ObjectIdentifier
    var value: Any?
  }

  /// A distinct element watched. A reference, shared by the copies of the membership: only
  /// the thread taking changes changes it, under the observation's lock.
  private final class Watched {
    let id: ObjectIdentifier
    weak var object: AnyObject?
    let token: ObservationToken?
    var value: Any?
    /// The places the element has.
    var places = 0
    /// The last ``ElementMembership/take(_:fresh:keepingOld:)`` that found it in place.
    var mark = 0
    /// A place where it was last seen, looked at first (and beside it) when its key changes:
    /// an insertion or removal before it moves it, so a hint is checked, and the places
    /// scanned when it is wrong.
    var hint = 0

    init(_ object: AnyObject, token: ObservationToken?, value: Any?) {
      id = ObjectIdentifier(object)
      self.object = object
      self.token = token
      self.value = value
    }
  }

  /// A distinct element newly watched: its observation (`nil` if its key cannot be observed)
  /// and its value, read after the observation was in place.
  struct Fresh {
    let object: AnyObject
    let token: ObservationToken?
    let value: Any?
  }

  init(relationship: String, in table: KeyTable, rest: String?, keepsValues: Bool)
    throws(KeyValueError)
  {
    self.relationship = relationship
    path = try table.keyValuePath(relationship)
    self.rest = rest
    self.keepsValues = keepsValues && rest != nil
    countPath = rest == nil ? try table.keyValuePath(relationship + ".@count") : nil
  }

  /// The value at every place: O(count).
  var values: [Any?] { placed.map(\.value) }

  /// The members at every place, with their values: O(count).
  var members: [Member] { placed.map { Member(id: $0.id, value: $0.value) } }

  /// The value of the element at `place`.
  func value(at place: Int) -> Any? { placed[place].value }

  /// The distinct elements of `objects` not watched yet: new ones, and ones at the address of
  /// a released element.
  func unwatched(in objects: [any KeyValueObservable]) -> [any KeyValueObservable] {
    guard rest != nil else { return [] }
    var seen = Set<ObjectIdentifier>()
    return objects.filter { object in
      let id = ObjectIdentifier(object)
      return seen.insert(id).inserted && watched[id]?.object !== object
    }
  }

  /// Takes `snapshot` as the relationship's elements now, with the elements newly watched.
  /// Returns the members before (if `keepingOld`, else none), the observations to end
  /// (elements that left), and whether an element now has the identity of a released one (then
  /// identities before and after cannot be compared). O(count).
  mutating func take(_ snapshot: ElementSnapshot, fresh: [Fresh], keepingOld: Bool = true) -> (
    old: [Member], ended: [ObservationToken], reusesIdentity: Bool
  ) {
    let old = keepingOld ? members : []
    isPresent = snapshot.isPresent
    count = snapshot.count
    guard rest != nil else { return (old, [], false) }
    var ended: [ObservationToken] = []
    var reusesIdentity = false
    for element in fresh {
      let id = ObjectIdentifier(element.object)
      if let replaced = watched[id] {
        reusesIdentity = true
        if let token = replaced.token { ended.append(token) }
      }
      watched[id] = Watched(element.object, token: element.token, value: element.value)
    }
    readings += 1
    let reading = readings
    var elements: [Watched] = []
    elements.reserveCapacity(snapshot.objects.count)
    for object in snapshot.objects {
      let element = watched[ObjectIdentifier(object)]!
      if element.mark != reading {
        element.mark = reading
        element.places = 0
        element.hint = elements.count
      }
      element.places += 1
      elements.append(element)
    }
    let previous = placed
    placed = BlockList(elements)
    // The elements that left, in the order they had (not the dictionary's: the order tokens
    // end in is the same every time the same changes are made).
    for element in previous where element.mark != reading {
      guard watched[element.id] === element else { continue }
      watched.removeValue(forKey: element.id)
      if let token = element.token { ended.append(token) }
    }
    return (old, ended, reusesIdentity)
  }

  /// Whether a change of `kind` at `indexes` (ascending; for an insertion, places in the
  /// result) putting `inserted` in place fits the members now.
  func fits(_ kind: KeyValueChangeKind, at indexes: IndexSet, inserted: Int) -> Bool {
    switch kind {
    case .setting: return false
    case .insertion:
      return inserted == indexes.count
        && indexes.enumerated().allSatisfy { $1 <= placed.count + $0 }
    case .removal: return (indexes.last ?? 0) < placed.count
    case .replacement: return inserted == indexes.count && (indexes.last ?? 0) < placed.count
    }
  }

  /// Applies a change of `kind` at `indexes` that put `inserted` in place (its new elements
  /// among them in `fresh`), in O(changed elements) but for moving the places after the
  /// first index. Returns the values at `indexes` before (removal, replacement) and after
  /// (insertion, replacement), and the observations to end (elements that left); `nil`, with
  /// nothing changed, if the change does not fit (see ``fits(_:at:inserted:)``) or an element
  /// has the identity of a released one.
  mutating func apply(
    _ kind: KeyValueChangeKind, at indexes: IndexSet, inserted: [ObjectIdentifier],
    fresh: [Fresh]
  ) -> (old: [Any?], new: [Any?], ended: [ObservationToken])? {
    guard rest != nil, fits(kind, at: indexes, inserted: inserted.count),
      fresh.allSatisfy({ watched[ObjectIdentifier($0.object)] == nil })
    else { return nil }
    for element in fresh {
      watched[ObjectIdentifier(element.object)] = Watched(
        element.object, token: element.token, value: element.value)
    }
    // Every element put in place is watched now (the fresh ones just above).
    guard inserted.allSatisfy({ watched[$0] != nil }) else { return nil }
    var ended: [ObservationToken] = []
    var old: [Any?] = []
    var new: [Any?] = []
    switch kind {
    case .insertion:
      for (index, id) in zip(indexes, inserted) {
        let element = watched[id]!
        placed.insert(element, at: index)
        element.places += 1
        element.hint = index
        new.append(element.value)
      }
      count += inserted.count
    case .removal:
      old = indexes.map { value(at: $0) }
      for index in indexes.reversed() { leave(placed.remove(at: index), &ended) }
      count -= indexes.count
    case .replacement:
      for (index, id) in zip(indexes, inserted) {
        let element = watched[id]!
        old.append(placed[index].value)
        element.places += 1
        leave(placed[index], &ended)
        placed[index] = element
        element.hint = index
        new.append(element.value)
      }
    case .setting:
      return nil
    }
    return (old, new, ended)
  }

  /// Element `id` lost a place: its observation ends with its last one.
  private mutating func leave(_ element: Watched, _ ended: inout [ObservationToken]) {
    element.places -= 1
    guard element.places == 0 else { return }
    watched.removeValue(forKey: element.id)
    if let token = element.token { ended.append(token) }
  }

  /// The element watched as `id`, if it is a member and alive.
  func element(_ id: ObjectIdentifier) -> (any KeyValueObservable)? {
    watched[id]?.object as? any KeyValueObservable
  }

  /// The places of element `id`, in ascending order. An element in one place is looked for at
  /// its hint and beside it first (O(blocks) each), then by a scan of the places (O(count)).
  func places(of id: ObjectIdentifier) -> [Int] {
    guard let element = watched[id] else { return [] }
    guard element.places == 1 else {
      return placed.enumerated().filter { $0.element === element }.map(\.offset)
    }
    for place in [element.hint, element.hint + 1, element.hint - 1]
    where place >= 0 && place < placed.count && placed[place] === element {
      element.hint = place
      return [place]
    }
    guard let place = placed.firstIndex(where: { $0 === element }) else { return [] }
    element.hint = place
    return [place]
  }

  /// Gives element `id` its new value at every place it has; returns the places and the
  /// values there before.
  mutating func setValue(_ value: Any?, of id: ObjectIdentifier) -> (
    places: [Int], old: [Any?]
  ) {
    let places = places(of: id)
    guard !places.isEmpty else { return ([], []) }
    let before = watched[id]?.value ?? nil
    watched[id]?.value = value
    return (places, Array(repeating: before, count: places.count))
  }

  /// Forgets every element; returns their observations, to end after unlocking, in the order
  /// of their places.
  mutating func endAll() -> [ObservationToken] {
    var tokens: [ObservationToken] = []
    for element in placed where watched.removeValue(forKey: element.id) != nil {
      if let token = element.token { tokens.append(token) }
    }
    watched = [:]
    placed = BlockList()
    return tokens
  }
}

/// A relationship's elements as a changing thread read them: whether it was there (not cut by a
/// `nil` relationship before it), how many, and the elements (unless only the count matters).
struct ElementSnapshot {
  var isPresent = false
  var count = 0
  var objects: [any KeyValueObservable] = []
}

/// A change a ``SerialObservation`` hears of.
enum FollowedChange {
  /// A change of followed relationship `membership`: its kind, indexes, and the identities of
  /// the elements it inserted or put in place; after the change, the relationship as the
  /// changing thread read it (`nil` in a prior notification, and for a change taken as it was
  /// made, see ``SerialObservationStateMachine/Windows``: then `objects` holds the elements it inserted or put in
  /// place).
  case relationship(
    membership: Int, kind: KeyValueChangeKind, indexes: IndexSet?, inserted: [ObjectIdentifier],
    isPrior: Bool, snapshot: ElementSnapshot?, objects: [any KeyValueObservable] = [])
  /// A change of the followed key of an element of relationship `membership`.
  case element(membership: Int, id: ObjectIdentifier, isPrior: Bool)
  /// A change of anything else the value depends on (the relationships among them), with each
  /// followed relationship as the changing thread read it after the change (`nil` in a prior
  /// notification).
  case other(isPrior: Bool, snapshots: [ElementSnapshot]?)
}
