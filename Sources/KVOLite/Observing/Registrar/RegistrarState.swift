/// What a registrar context guards: the observer lists of each key, the replaced lists that
/// deliveries still iterate, and pending manual notifications. Plain values and mutating
/// methods; the context's lock makes them safe.
struct RegistrarState {
  /// The current list of each key, by the key's index in its type's table; `nil` when nobody
  /// observes the key. (The context also publishes them; see ``RegistrarContext``.)
  var lists: [ObserverList?]
  /// Replaced lists that deliveries in flight still iterate. Each leaves when its last
  /// delivery ends.
  var retired: [ObserverList] = []
  /// `willChangeValue` calls waiting for their `didChangeValue`.
  var manualFrames: [ManualFrame] = []
  /// Registrations of the classic observer API, oldest first.
  var classic: [ClassicRegistration] = []
  /// Set when the object is released; nothing is added after.
  var isTornDown = false

  init(keyCount: Int) {
    lists = Array(repeating: nil, count: keyCount)
  }

  /// Counts a delivery in `list`, which a frame kept and which may have been replaced since:
  /// then it is kept as retired while the delivery lasts.
  mutating func hold(_ list: ObserverList) {
    list.inFlight.pointee.add(1, ordering: .relaxed)
    if lists[list.first.keyIndex] !== list, !retired.contains(where: { $0 === list }) {
      retired.append(list)
    }
  }

  /// Drops the retired lists no delivery iterates any more; returns them (to release after
  /// unlocking).
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
  func heldLists(containing trigger: Trigger) -> [ObserverList] {
    func isHeld(_ list: ObserverList) -> Bool {
      list.inFlight.pointee.load(ordering: .acquiring) > 0 && list.contains(trigger)
    }
    var held: [ObserverList] = []
    if let current = lists[trigger.keyIndex], isHeld(current) { held.append(current) }
    for list in retired where isHeld(list) { held.append(list) }
    return held
  }
}
