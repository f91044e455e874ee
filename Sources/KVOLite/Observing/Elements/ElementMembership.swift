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
  private(set) var members: [Member] = []
  /// The observation of the followed key of each distinct element, by identity; the element
  /// weakly, so that an element released meanwhile is never taken for a new one at its address.
  private var watched: [ObjectIdentifier: Watched] = [:]

  struct Member {
    let id: ObjectIdentifier
    var value: Any?
  }

  private struct Watched {
    weak var object: AnyObject?
    let token: ObservationToken?
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

  var values: [Any?] { members.map(\.value) }

  /// The distinct elements of `snapshot` not watched yet: new ones, and ones at the address of
  /// a released element.
  func unwatched(in snapshot: ElementSnapshot) -> [any KeyValueObservable] {
    guard rest != nil else { return [] }
    var seen = Set<ObjectIdentifier>()
    return snapshot.objects.filter { object in
      let id = ObjectIdentifier(object)
      return seen.insert(id).inserted && watched[id]?.object !== object
    }
  }

  /// Takes `snapshot` as the relationship's elements now, with the elements newly watched.
  /// Returns the members before, the observations to end (elements that left), and whether
  /// an element now has the identity of a released one (then identities before and after
  /// cannot be compared).
  mutating func take(_ snapshot: ElementSnapshot, fresh: [Fresh]) -> (
    old: [Member], ended: [ObservationToken], reusesIdentity: Bool
  ) {
    let old = members
    isPresent = snapshot.isPresent
    count = snapshot.count
    guard rest != nil else { return (old, [], false) }
    var ended: [ObservationToken] = []
    var reusesIdentity = false
    var values: [ObjectIdentifier: Any?] = [:]
    for member in old where values[member.id] == nil { values[member.id] = .some(member.value) }
    for element in fresh {
      let id = ObjectIdentifier(element.object)
      if let replaced = watched[id] {
        reusesIdentity = true
        if let token = replaced.token { ended.append(token) }
      }
      watched[id] = Watched(object: element.object, token: element.token)
      values[id] = .some(element.value)
    }
    members = snapshot.objects.map { object in
      let id = ObjectIdentifier(object)
      return Member(id: id, value: values[id] ?? nil)
    }
    let present = Set(members.map(\.id))
    for id in Array(watched.keys) where !present.contains(id) {
      if let token = watched.removeValue(forKey: id)?.token { ended.append(token) }
    }
    return (old, ended, reusesIdentity)
  }

  /// The element watched as `id`, if it is a member and alive.
  func element(_ id: ObjectIdentifier) -> (any KeyValueObservable)? {
    watched[id]?.object as? any KeyValueObservable
  }

  /// The places of element `id`, in ascending order.
  func places(of id: ObjectIdentifier) -> [Int] {
    members.indices.filter { members[$0].id == id }
  }

  /// Gives element `id` its new value at every place it has; returns the places and the
  /// values there before.
  mutating func setValue(_ value: Any?, of id: ObjectIdentifier) -> (
    places: [Int], old: [Any?]
  ) {
    let places = places(of: id)
    let old = places.map { members[$0].value }
    for place in places { members[place].value = value }
    return (places, old)
  }

  /// Forgets every element; returns their observations, to end after unlocking.
  mutating func endAll() -> [ObservationToken] {
    defer {
      watched = [:]
      members = []
    }
    return watched.values.compactMap(\.token)
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
  /// changing thread read it (`nil` in a prior notification).
  case relationship(
    membership: Int, kind: KeyValueChangeKind, indexes: IndexSet?, inserted: [ObjectIdentifier],
    isPrior: Bool, snapshot: ElementSnapshot?)
  /// A change of the followed key of an element of relationship `membership`.
  case element(membership: Int, id: ObjectIdentifier, isPrior: Bool)
  /// A change of anything else the value depends on (the relationships among them), with each
  /// followed relationship as the changing thread read it after the change (`nil` in a prior
  /// notification).
  case other(isPrior: Bool, snapshots: [ElementSnapshot]?)
}
