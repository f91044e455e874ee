import KVOLiteLocking

/// The state machine of a registrar context: the observer list of each key, the replaced lists
/// that deliveries may still iterate, pending manual notifications, classic registrations, and
/// whether the object is gone. Plain values; ``RegistrarContext`` (its storage) runs each
/// transition with the object's property lock held and performs the ``Action`` it returns: it
/// closes the gates of replaced lists before unlocking (the new lists are published for the
/// fast path), and after unlocking releases what was let go of, waits for deliveries and ends
/// the observations rooted at a released object.
///
/// ## One key
///
/// A key's list is published for the fast path (``RegistrarContext/beginDelivery(key:)``): a
/// set of the key enters the list's ``InFlightGate`` under the property lock, without any other
/// lock, and leaves after its last use of the list. So, under the property lock, a list's gate
/// says whether a delivery iterates it, and no delivery can enter while the lock is held:
///
/// ```
///   unobserved --add--> published, idle --a set enters its gate--> published, busy
///       ^                 |    ^   add / remove in place            |     |
///       |                 |    +----- the last delivery leaves -----+     |
///       +-remove the last-+                                               |
///                    published, idle <--add / remove: a changed copy------+
///                                        replaces it; the old list is closed, and
///                                        retired while a delivery is inside it
/// ```
///
/// - An idle list is changed in place (an append, an emptied slot).
/// - A busy list is replaced by a changed copy: the deliveries inside go on with the list they
///   began with, unchanged. The replaced list is closed (its gate), and remembered weakly as
///   *retired* while deliveries still iterate it; removing a trigger reports the retired lists
///   that hold it, and its invalidation waits for them (``InFlightGate/closeAndWait()``).
/// - A closed list is never entered again: deliveries enter only published lists. A change
///   whose did-phase comes after its list was replaced learns it from the closed gate.
/// - ``tearDown()`` (the object is released) replaces every list by none and ends every
///   trigger: ``Phase/tornDown``, where nothing is added.
///
/// A trigger's *active* state (``Trigger/isActive``) is this machine's too: it is ended only by
/// ``remove(_:)`` and ``tearDown()``, and an active trigger is always in its key's current list
/// (so a delivery counted in the current list is counted in a list of every trigger it may
/// call).
///
/// ## Changes in flight
///
/// A trigger that takes changes in flight (``ObservingOptions/takesChangesInFlight``: those an
/// observation that follows elements places while the model changes) also gets a change whose
/// will-phase came before it was added: it was added to a copy that replaced the list the
/// change iterates, so the change's did-phase, finding its list closed, asks
/// ``lateList(key:after:)`` for the current list and delivers to those triggers in it that its
/// will-phase did not meet.
@usableFromInline
struct RegistrarStateMachine {
  /// Whether the object is alive.
  enum Phase { case open, tornDown }

  private(set) var phase = Phase.open
  /// The current list of each key, by the key's index in its type's table; `nil` when nobody
  /// observes the key. The fast path reads them under the property lock (the context's
  /// ``RegistrarContext/beginDelivery(key:)``): they are the published lists.
  @usableFromInline private(set) var lists: [ObserverList?]
  /// Lists replaced while deliveries iterated them, weakly: the deliveries keep them alive.
  private(set) var retired: [RetiredList] = []
  /// `willChangeValue` calls waiting for their `didChangeValue`.
  private(set) var manualFrames: [ManualFrame] = []
  /// Registrations of the classic observer API, oldest first.
  private(set) var classic: [ClassicRegistration] = []

  init(keyCount: Int) {
    lists = Array(repeating: nil, count: keyCount)
  }

  /// A list that becomes key `key`'s (in ``lists``, where the fast path finds it), and the one
  /// it replaces (closed), released after unlocking.
  struct Publication {
    let key: Int
    let list: ObserverList?
    let old: ObserverList?
  }

  /// What the owner does after a transition, after unlocking; what an action holds is released
  /// with it (a release may run a `deinit`). (A list a transition replaces has its gate closed
  /// by the transition, under the lock: its key's new list is already where sets find it.)
  /// Registration and removal, the hot paths, allocate nothing here.
  enum Action {
    /// Nothing.
    case none
    /// Nothing was done: the object is being released.
    case refused
    /// `publication`'s list replaces its key's.
    case publish(Publication)
    /// A trigger removed: `publication`'s list replaces its key's, if the trigger was not taken
    /// out in place (`released`); wait for the deliveries still inside `waitFor` (unless the
    /// thread is delivering); release `pruned` (retired lists forgotten).
    case removed(
      Publication?, released: Trigger?, waitFor: [ObserverList], pruned: [ObserverList])
    /// Release these (retired lists forgotten, a classic registration), and invalidate the
    /// observation of `invalidate` (a classic registration's).
    case release([AnyObject], invalidate: Observation?)
    /// The object is gone: every key's list is replaced by none (`publications`); invalidate
    /// the observations rooted at the object (`rooted`); release the classic registrations and
    /// the manual frames.
    case tornDown(
      publications: [Publication], rooted: [Observation], classic: [ClassicRegistration],
      frames: [ManualFrame])
    /// The did-phase of `frame` is due (a `didChangeValue` found its `willChangeValue`).
    case finish(ManualFrame)
  }

  /// Adds `trigger` to the list of its key: in place when the list is idle and has room,
  /// otherwise in a copy (or a new list) that replaces it. A key's first list has
  /// `firstListSlots` slots: one, since most keys are observed once (a second observer makes a
  /// copy with room to grow; see ``ObserverList/copy(inserting:removing:)``); tests make lists
  /// with room.
  mutating func add(_ trigger: Trigger, firstListSlots: Int = 1) -> Action {
    guard phase == .open else { return .refused }
    let key = trigger.keyIndex
    guard let old = lists[key] else {
      let made = ObserverList.make(
        keyIndex: key, CollectionOfOne(trigger), capacity: firstListSlots)
      return .publish(replace(key: key, with: made))
    }
    if !old.isInFlight, old.appendInPlace(trigger) { return .none }
    return .publish(replace(key: key, with: old.copy(inserting: trigger)))
  }

  /// Ends `trigger` and removes it from the list of its key: in place when the list is idle
  /// (and not left half empty), otherwise by publishing a copy without it (or no list, for the
  /// last trigger). Removing an ended trigger changes nothing, but still reports the lists it
  /// is held in, so that every invalidation waits for the same deliveries.
  mutating func remove(_ trigger: Trigger) -> Action {
    var publication: Publication?
    var released: Trigger?
    let key = trigger.keyIndex
    if trigger.isActive {
      trigger.end()
      if let old = lists[key], let slot = old.slot(of: trigger) {
        if !old.isInFlight, old.live > 1, !old.needsCompactingAfterRemoval {
          released = old.removeInPlace(at: slot)
        } else {
          // The last trigger leaves no list (no copy to make of one).
          let remaining = old.live > 1 ? old.copy(removing: trigger) : nil
          publication = replace(key: key, with: remaining)
        }
      }
    }
    return .removed(
      publication, released: released, waitFor: lists(holding: trigger), pruned: pruneRetired())
  }

  /// Makes `new` the list of key `key`. The old list is retired if a delivery iterates it.
  private mutating func replace(key: Int, with new: ObserverList?) -> Publication {
    let old = lists[key]
    lists[key] = new
    if let old {
      // Closed as it is replaced, under the lock the transition runs with: no set enters it
      // after (sets enter only published lists, under that lock).
      old.gate.pointee.close()
      if old.isInFlight { retired.append(RetiredList(list: old)) }
    }
    return Publication(key: key, list: new, old: old)
  }

  /// The retired lists that deliveries still iterate with `trigger` (strong references:
  /// release them after unlocking). The current list never holds a removed trigger.
  func lists(holding trigger: Trigger) -> [ObserverList] {
    // No array is made unless a list is held (the usual case, on every invalidation).
    var held: [ObserverList] = []
    for retired in retired {
      if let list = retired.list, list.isInFlight, list.contains(trigger) { held.append(list) }
    }
    return held
  }

  /// Forgets the retired lists no delivery iterates any more.
  mutating func forgetDelivered() -> Action {
    .release(pruneRetired(), invalidate: nil)
  }

  /// Forgets the retired lists no delivery iterates any more. Returns the strong references
  /// this made, to release after unlocking (one may be the last).
  private mutating func pruneRetired() -> [ObserverList] {
    guard !retired.isEmpty else { return [] }
    var loaded: [ObserverList] = []
    retired.removeAll { retired in
      guard let list = retired.list else { return true }
      loaded.append(list)
      return !list.isInFlight
    }
    return loaded
  }

  /// The list a delivery that did not begin from the published slot enters (a manual
  /// notification, a change's late did-phase): the key's current list, which holds every
  /// active trigger of the key. The context enters its gate before unlocking.
  func currentList(key: Int) -> ObserverList? {
    lists[key]
  }

  /// For a change delivered from `list`, which was replaced since its will-phase: the key's
  /// current list if it holds triggers that take changes in flight (some may have been added
  /// after the will-phase); `nil` otherwise. The context enters its gate before unlocking.
  func lateList(key: Int, after list: ObserverList) -> ObserverList? {
    guard let current = lists[key], current !== list, current.takesChangesInFlight else {
      return nil
    }
    return current
  }

  /// Keeps a classic registration: it is notified from now on. `.refused` (keeping nothing)
  /// once torn down.
  mutating func keepClassic(_ registration: ClassicRegistration) -> Action {
    guard phase == .open else { return .refused }
    classic.append(registration)
    registration.move(to: .kept)
    return .none
  }

  /// Removes the most recent classic registration that `matches`: it is notified no more, and
  /// its observation is ended after unlocking.
  mutating func removeClassic(where matches: (ClassicRegistration) -> Bool) -> Action {
    guard let index = classic.lastIndex(where: matches) else { return .none }
    let registration = classic.remove(at: index)
    registration.move(to: .removed)
    return .release([registration], invalidate: registration.token?.observation)
  }

  /// Keeps `frame`, a `willChangeValue` waiting for its `didChangeValue`.
  mutating func pushManualFrame(_ frame: ManualFrame) -> Action {
    manualFrames.append(frame)
    return .none
  }

  /// Whether `thread` is between a `willChangeValue` and its `didChangeValue` for key `key`.
  func hasManualFrame(thread: ThreadIdentity, key: Int) -> Bool {
    manualFrames.contains { $0.thread == thread && $0.key == key }
  }

  /// Takes out the innermost pending frame of key `key` on `thread`: `.finish` with it, or
  /// nothing (a `didChangeValue` without its `willChangeValue` does nothing).
  mutating func popManualFrame(thread: ThreadIdentity, key: Int) -> Action {
    guard let position = manualFrames.lastIndex(where: { $0.thread == thread && $0.key == key })
    else { return .none }
    return .finish(manualFrames.remove(at: position))
  }

  /// The object is released: every trigger ends, every list is unpublished, and nothing is
  /// added after. The observations rooted at the object (their links there) are invalidated
  /// after unlocking, which detaches their links from the objects further along; the classic
  /// registrations' tokens and the pending frames are released. Tearing down twice does
  /// nothing more.
  mutating func tearDown() -> Action {
    guard phase == .open else { return .none }
    phase = .tornDown
    var publications: [Publication] = []
    var rooted: [Observation] = []
    for registration in classic { registration.move(to: .removed) }
    for key in lists.indices {
      guard let list = lists[key] else { continue }
      list.forEachTrigger { trigger in
        guard trigger.isActive else { return }
        trigger.end()
        if let observation = trigger.rootedObservation { rooted.append(observation) }
      }
      publications.append(replace(key: key, with: nil))
    }
    defer {
      classic = []
      manualFrames = []
    }
    return .tornDown(
      publications: publications, rooted: rooted, classic: classic, frames: manualFrames)
  }

  /// How many triggers the lists hold, over all keys.
  var triggerCount: Int { lists.reduce(0) { $0 + ($1?.live ?? 0) } }
}

/// A replaced list, weakly.
struct RetiredList {
  weak var list: ObserverList?
}
