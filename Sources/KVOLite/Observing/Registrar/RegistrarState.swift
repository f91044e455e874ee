/// What a registrar context guards: the observer lists of each key, the replaced lists that
/// deliveries still iterate, and pending manual notifications. Plain values and mutating
/// methods; the context's lock makes them safe.
struct RegistrarState {
  /// The current list of each key, by the key's index in its type's table; `nil` when nobody
  /// observes the key.
  var lists: [ObserverList?] = []
  /// Replaced lists that deliveries in flight still iterate. Each leaves when its last
  /// delivery ends.
  var retired: [ObserverList] = []
  /// `willChangeValue` calls waiting for their `didChangeValue`.
  var manualFrames: [ManualFrame] = []
  /// Set when the object is released; nothing is added after.
  var isTornDown = false

  func list(key index: Int) -> ObserverList? {
    index < lists.count ? lists[index] : nil
  }

  /// Inserts `trigger` in the list of its key. Returns whether it did, and the list it replaced
  /// if no delivery holds that one (to release after unlocking).
  mutating func insert(_ trigger: Trigger) -> (added: Bool, released: ObserverList?) {
    guard !isTornDown else { return (false, nil) }
    let index = trigger.keyIndex
    if lists.count <= index { lists.append(contentsOf: repeatElement(nil, count: index + 1 - lists.count)) }
    guard let old = lists[index] else {
      lists[index] = .make(trigger)
      return (true, nil)
    }
    lists[index] = old.inserting(trigger)
    return (true, retire(old))
  }

  /// Removes `trigger` from the list of its key. Returns the lists that deliveries in flight
  /// still iterate with it, and the list it replaced if no delivery holds that one.
  mutating func remove(_ trigger: Trigger) -> (held: [ObserverList], released: ObserverList?) {
    let index = trigger.keyIndex
    guard let old = list(key: index) else { return (heldLists(containing: trigger), nil) }
    let new = old.removing(trigger)
    guard new !== old else { return (heldLists(containing: trigger), nil) }
    lists[index] = new
    let released = retire(old)
    return (heldLists(containing: trigger), released)
  }

  /// Counts a delivery in the list of key `index`.
  mutating func beginDelivery(key index: Int) -> ObserverList? {
    guard let list = list(key: index) else { return nil }
    list.inFlight.pointee.add(1, ordering: .relaxed)
    return list
  }

  /// Counts a delivery in `list`, which a frame kept and which may have been replaced since:
  /// then it is kept as retired while the delivery lasts.
  mutating func hold(_ list: ObserverList) {
    list.inFlight.pointee.add(1, ordering: .relaxed)
    if self.list(key: list.first.keyIndex) !== list, !retired.contains(where: { $0 === list }) {
      retired.append(list)
    }
  }

  /// Everything, for the end of the object: the registrar is empty afterwards and accepts
  /// nothing more.
  mutating func tearDown() -> [ObserverList] {
    isTornDown = true
    let current = lists.compactMap { $0 }
    lists = []
    manualFrames = []
    // A list a delivery still iterates stays, retired, until that delivery ends.
    for list in current { _ = retire(list) }
    return current + retired
  }

  /// Keeps `list` while deliveries iterate it; returns it (to release) when none does.
  private mutating func retire(_ list: ObserverList) -> ObserverList? {
    guard list.inFlight.pointee.load(ordering: .sequentiallyConsistent) > 0 else { return list }
    retired.append(list)
    return nil
  }

  /// Drops the retired lists no delivery iterates any more; returns them (to release after
  /// unlocking). Called whenever the state changes.
  mutating func pruneRetired() -> [ObserverList] {
    var done: [ObserverList] = []
    retired.removeAll { list in
      guard list.inFlight.pointee.load(ordering: .acquiring) == 0 else { return false }
      done.append(list)
      return true
    }
    return done
  }

  /// The current and retired lists with deliveries in flight that contain `trigger`.
  private func heldLists(containing trigger: Trigger) -> [ObserverList] {
    func isHeld(_ list: ObserverList) -> Bool {
      list.inFlight.pointee.load(ordering: .acquiring) > 0 && list.contains(trigger)
    }
    var held: [ObserverList] = []
    if let current = list(key: trigger.keyIndex), isHeld(current) { held.append(current) }
    for list in retired where isHeld(list) { held.append(list) }
    return held
  }
}
