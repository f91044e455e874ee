import KVOLiteLocking
import Synchronization

/// The registrar's lock and state: the shape of Swift Observation's registrar context.
///
/// Every method takes the lock, works on ``RegistrarState`` (plain values, no locking inside),
/// collects what must happen outside, unlocks, and then does it: releasing replaced lists and
/// removed triggers (releasing a trigger may release a handler, whose captures may run a
/// `deinit`), ending triggers. Nothing runs user code with the lock held.
///
/// ## The published lists (the fast path)
///
/// A set of an observed property already holds the object's ``PropertyLock``. So that it
/// needs no other lock, each key's current list is also *published* in a slot that is written
/// only with both locks held (this one, then the property lock) and read with either. The
/// setter reads it under the property lock, retains it and counts itself in its in-flight
/// count there (see ``ObserverList`` for what the count allows). The property lock is found
/// from the object's address, not its memory, so even a removal after the object is gone can
/// take it.
///
/// Lock order: this context's lock, then the object's property lock. Neither is held while
/// anything outside KVOLite runs.
@usableFromInline
final class RegistrarContext: @unchecked Sendable {
  // @unchecked: `state` is only touched with `lock` held; for the same reason its accesses are
  // not checked for exclusivity at run time (the check would cost more than the lock). The
  // published slots follow the rule above.
  private let lock = Lock()
  @exclusivity(unchecked) private var state: RegistrarState
  /// The object's property lock.
  private let objectLock: PropertyLock
  /// The current list of each key, unretained (`state` holds them); see above.
  @usableFromInline let published: UnsafeMutablePointer<Unmanaged<ObserverList>?>
  @usableFromInline let keyCount: Int
  /// The keys of the object's class.
  @usableFromInline let table: KeyTable

  /// A context for the object at `objectAddress`, whose class's keys are `table`.
  init(objectAddress: UnsafeRawPointer, table: KeyTable) {
    objectLock = PropertyLock(for: objectAddress)
    self.table = table
    let keyCount = table.entries.count
    self.keyCount = keyCount
    published = .allocate(capacity: max(1, keyCount))
    published.initialize(repeating: nil, count: max(1, keyCount))
    state = RegistrarState(keyCount: keyCount)
  }

  deinit {
    published.deallocate()
  }

  /// Runs `body` on the state with the lock held.
  private func withState<Result>(_ body: (inout RegistrarState) -> Result) -> Result {
    lock.withLock { body(&state) }
  }

  // MARK: - Registration

  /// Adds `trigger` to the list of its key, in place when no delivery iterates the list.
  /// Returns `false`, adding nothing, if the object is being released.
  func add(_ trigger: Trigger) -> Bool {
    let (added, released) = withState { state -> (Bool, ObserverList?) in
      guard !state.isTornDown else { return (false, nil) }
      let index = trigger.keyIndex
      guard let old = state.lists[index] else {
        let made = ObserverList.make(keyIndex: index, CollectionOfOne(trigger), capacity: 2)
        return (true, replace(&state, key: index, with: made))
      }
      objectLock.lock()
      let appended = !old.isInFlight && old.appendInPlace(trigger)
      objectLock.unlock()
      if appended { return (true, nil) }
      return (true, replace(&state, key: index, with: old.copy(inserting: trigger)))
    }
    withExtendedLifetime(released) {}
    return added
  }

  /// Removes `trigger` from the list of its key, in place when no delivery iterates the list;
  /// removing what is not there does nothing. Returns the lists that deliveries in flight
  /// still iterate with the trigger.
  func remove(_ trigger: Trigger) -> [ObserverList] {
    var removed: Trigger?
    let (held, released, pruned) = withState {
      state -> ([ObserverList], ObserverList?, [ObserverList]) in
      let index = trigger.keyIndex
      var released: ObserverList?
      if let old = state.lists[index], let slot = old.slot(of: trigger) {
        objectLock.lock()
        let inPlace = !old.isInFlight && old.live > 1 && !old.needsCompactingAfterRemoval
        if inPlace { removed = old.removeInPlace(at: slot) }
        objectLock.unlock()
        if !inPlace {
          // The last observer leaves no list (no copy to make of one).
          let remaining = old.live > 1 ? old.copy(removing: trigger) : nil
          released = replace(&state, key: index, with: remaining)
        }
      }
      return (state.heldLists(containing: trigger), released, state.pruneRetired())
    }
    withExtendedLifetime((released, pruned, removed)) {}
    return held
  }

  /// Makes `new` the list of key `index`, published under the object's property lock. The old
  /// list is returned, to release after unlocking; if deliveries iterate it, it is remembered
  /// as retired.
  private func replace(_ state: inout RegistrarState, key index: Int, with new: ObserverList?)
    -> ObserverList?
  {
    let old = state.lists[index]
    state.lists[index] = new
    objectLock.lock()
    published[index] = new.map { Unmanaged.passUnretained($0) }
    // Deliveries count themselves under the property lock: none can start on `old` now.
    let isHeld = old?.isInFlight ?? false
    objectLock.unlock()
    if let old, isHeld { state.retired.append(RetiredList(list: old)) }
    return old
  }

  /// Waits until no delivery iterates any of `lists` (lists of this context), then forgets the
  /// retired lists that are done.
  func waitUntilDelivered(_ lists: [ObserverList]) {
    for list in lists {
      Parking.wait { !list.isInFlight }
    }
    let released = withState { $0.pruneRetired() }
    withExtendedLifetime(released) {}
  }

  /// How many triggers the context holds, over all keys.
  var triggerCount: Int {
    lock.withLock { state.lists.reduce(0) { $0 + ($1?.live ?? 0) } }
  }

  // MARK: - Delivery

  /// The list of key `index`, retained and counted as iterated by one more delivery, or `nil`
  /// if the key has no observers. Call with the object's property lock held; end the delivery
  /// with ``endDelivery(_:)``.
  @inlinable
  func beginDelivery(key index: Int) -> ObserverList? {
    guard index < keyCount, let published = published[index] else { return nil }
    // Retained here, under the property lock (the registrar releases a list only after
    // unpublishing it under that lock, and unlocking is a call the optimizer cannot move a
    // retain past).
    let list = published.takeUnretainedValue()
    list.inFlight.pointee.add(1, ordering: .relaxed)
    return list
  }

  /// Ends a delivery of `list` (begun by ``beginDelivery(key:)`` or ``whileDelivering(_:_:)``),
  /// after its last use of the list.
  @inlinable
  func endDelivery(_ list: ObserverList) {
    list.inFlight.pointee.subtract(1, ordering: .releasing)
  }

  /// The list of key `index` (for frames that outlive one delivery).
  func currentList(key index: Int) -> ObserverList? {
    lock.withLock { state.lists[index] }
  }

  /// The list of key `index` now, counted as iterated by one more delivery (so that it does
  /// not change while it is read); end the delivery with ``endDelivery(_:)``.
  func beginDeliveryOfCurrentList(key index: Int) -> ObserverList? {
    withState { state in
      guard let list = state.lists[index] else { return nil }
      state.hold(list)
      return list
    }
  }

  /// Runs `body`, which delivers from `list` (current or not), counted as a delivery of it.
  func whileDelivering<Result>(_ list: ObserverList, _ body: () -> Result) -> Result {
    withState { $0.hold(list) }
    defer { endDelivery(list) }
    return body()
  }

  // MARK: - Manual notification

  /// Keeps a frame between `willChangeValue` and `didChangeValue`.
  func pushManualFrame(_ frame: ManualFrame) {
    lock.withLock { state.manualFrames.append(frame) }
  }

  /// The innermost pending frame of key `index` on `thread`, removed; `nil` if there is none.
  func popManualFrame(thread: UInt, key index: Int) -> ManualFrame? {
    lock.withLock {
      guard
        let position = state.manualFrames.lastIndex(where: {
          $0.thread == thread && $0.key == index
        })
      else { return nil }
      return state.manualFrames.remove(at: position)
    }
  }

  // MARK: - The classic observer API

  /// Keeps a classic registration; `false` (keeping nothing) if the object is being released.
  func addClassic(_ registration: ClassicRegistration) -> Bool {
    lock.withLock {
      guard !state.isTornDown else { return false }
      state.classic.append(registration)
      return true
    }
  }

  /// Removes and returns the most recent classic registration that `matches`, if any (its
  /// token is the caller's to invalidate, after the lock).
  func removeClassic(where matches: (ClassicRegistration) -> Bool) -> ClassicRegistration? {
    lock.withLock {
      guard let index = state.classic.lastIndex(where: matches) else { return nil }
      return state.classic.remove(at: index)
    }
  }

  // MARK: - The end

  /// Ends every observation of the released object: direct observations become inert, and
  /// path observations that start at the object are invalidated (detaching their links from
  /// the objects further along).
  func tearDown() {
    var classic: [ClassicRegistration] = []
    let lists = withState { state -> [ObserverList] in
      state.isTornDown = true
      state.manualFrames = []
      swap(&classic, &state.classic)
      var released: [ObserverList] = []
      for index in state.lists.indices where state.lists[index] != nil {
        released += replace(&state, key: index, with: nil).map { [$0] } ?? []
      }
      return released + state.retired.compactMap(\.list)
    }
    var rooted: [PathObservation] = []
    for list in lists {
      list.forEachTrigger { trigger in
        guard trigger.active.exchange(false, ordering: .acquiringAndReleasing) else { return }
        if let (observation, level, _) = trigger.path, level == 0 { rooted.append(observation) }
      }
    }
    for observation in rooted { observation.invalidate() }
    // Their tokens are released here, after the lock (a token's release invalidates it).
    withExtendedLifetime(classic) {}
  }
}

/// A `willChangeValue` waiting for its `didChangeValue` on the same thread.
struct ManualFrame {
  let thread: UInt
  let key: Int
  /// `nil` when nobody observed the key at will-time.
  let frame: ChangeFrame?
  /// The key's value at will-time.
  let old: Any?
  /// The value the did-time reports, when the will-time knew it; `nil`: read it then.
  let new: Any?
}
