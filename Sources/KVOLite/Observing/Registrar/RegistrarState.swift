import KVOLiteLocking

/// What a registrar context guards: the observer lists of each key, the replaced lists that
/// deliveries may still iterate, and pending manual notifications. Plain values and mutating
/// methods; the context's lock makes them safe.
struct RegistrarState {
  /// The current list of each key, by the key's index in its type's table; `nil` when nobody
  /// observes the key. (The context also publishes them; see ``RegistrarContext``.)
  var lists: [ObserverList?]
  /// Lists replaced while deliveries iterated them, weakly: the deliveries keep them alive,
  /// and they are kept here only so that ``ObservationToken/invalidate()`` can find them and
  /// wait for those deliveries.
  var retired: [RetiredList] = []
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
  /// then it is remembered as retired while the delivery lasts.
  mutating func hold(_ list: ObserverList) {
    list.inFlight.pointee.add(1, ordering: .acquiringAndReleasing)
    if lists[list.keyIndex] !== list, !retired.contains(where: { $0.list === list }) {
      retired.append(RetiredList(list: list))
    }
  }

  /// Forgets the retired lists no delivery iterates any more. Returns the strong references
  /// this made, to release after unlocking (one may be the last).
  mutating func pruneRetired() -> [ObserverList] {
    guard !retired.isEmpty else { return [] }
    var loaded: [ObserverList] = []
    retired.removeAll { retired in
      guard let list = retired.list else { return true }
      loaded.append(list)
      return !list.isInFlight
    }
    return loaded
  }

  /// The current and retired lists with deliveries in flight that contain `trigger` (strong
  /// references: release them after unlocking).
  func heldLists(containing trigger: Trigger) -> [ObserverList] {
    // No array is made unless a list is held (the usual case, on every invalidation).
    var held: [ObserverList] = []
    if let list = lists[trigger.keyIndex], list.isInFlight, list.contains(trigger) {
      held.append(list)
    }
    for retired in retired {
      if let list = retired.list, list.isInFlight, list.contains(trigger) { held.append(list) }
    }
    return held
  }
}

/// A replaced list, weakly.
struct RetiredList {
  weak var list: ObserverList?
}
