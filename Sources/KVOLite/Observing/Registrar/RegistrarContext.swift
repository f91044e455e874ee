/// The registrar's lock and state: the shape of Swift Observation's registrar context.
///
/// Every method takes the lock, works on ``RegistrarState`` (plain values, no locking inside),
/// collects what must happen outside, unlocks, and then does it: releasing replaced lists
/// (releasing a trigger may release a handler, whose captures may run a `deinit`), waking
/// waiters, ending triggers. Nothing runs user code with the lock held.
@usableFromInline
final class RegistrarContext: @unchecked Sendable {
  // @unchecked: `state` is only touched with `lock` held; for the same reason its accesses are
  // not checked for exclusivity at run time (the check would cost more than the lock).
  private let lock = Lock()
  @exclusivity(unchecked) private var state = RegistrarState()

  init() {}

  // MARK: - Registration

  /// Adds `trigger` to the list of its key. Returns `false`, adding nothing, if the object is
  /// being released.
  func add(_ trigger: Trigger) -> Bool {
    let (added, replaced) = lock.withLock { state.insert(trigger) }
    withExtendedLifetime(replaced) {}
    return added
  }

  /// Removes `trigger` from the list of its key; removing what is not there does nothing.
  /// Returns the lists that deliveries in flight still iterate with the trigger.
  func remove(_ trigger: Trigger) -> [ObserverList] {
    let (held, released) = lock.withLock { state.remove(trigger) }
    withExtendedLifetime(released) {}
    return held
  }

  /// Waits until no delivery iterates any of `lists` (lists of this context).
  func waitUntilDelivered(_ lists: [ObserverList]) {
    for list in lists {
      lock.withLock { list.waiters += 1 }
      // Lock order: the parking mutex, then this lock; a delivery wakes waiters after unlocking.
      Parking.wait { lock.withLock { list.inFlight == 0 } }
      lock.withLock { list.waiters -= 1 }
    }
  }

  /// How many triggers the context holds, over all keys.
  var triggerCount: Int {
    lock.withLock { state.lists.reduce(0) { $0 + ($1?.triggers.count ?? 0) } }
  }

  // MARK: - Delivery

  /// The list of key `index`, counted as held by one more delivery, or `nil` if the key has no
  /// observers. The list is not retained: the registrar keeps it until ``endDelivery(_:)``.
  @usableFromInline
  func beginDelivery(key index: Int) -> Unmanaged<ObserverList>? {
    lock.withLock { state.beginDelivery(key: index) }.map(Unmanaged.passUnretained)
  }

  /// Ends a delivery begun by ``beginDelivery(key:)``.
  @usableFromInline
  func endDelivery(_ list: Unmanaged<ObserverList>) {
    let (released, wake) = lock.withLock { state.endDelivery(list.takeUnretainedValue()) }
    withExtendedLifetime(released) {}
    if wake { Parking.wakeAll() }
  }

  /// The list of key `index` as a strong reference (for frames that outlive one delivery).
  func currentList(key index: Int) -> ObserverList? {
    lock.withLock { state.list(key: index) }
  }

  /// Runs `body`, which delivers from `list` (current or not), counted as a delivery of it.
  func whileDelivering<Result>(_ list: ObserverList, _ body: () -> Result) -> Result {
    lock.withLock { state.hold(list) }
    defer { endDelivery(Unmanaged.passUnretained(list)) }
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
      guard let position = state.manualFrames.lastIndex(where: { $0.thread == thread && $0.key == index })
      else { return nil }
      return state.manualFrames.remove(at: position)
    }
  }

  // MARK: - The end

  /// Ends every observation of the released object: direct observations become inert, and
  /// path observations that start at the object are invalidated (detaching their links from
  /// the objects further along).
  func tearDown() {
    let lists = lock.withLock { state.tearDown() }
    var rooted: [PathObservation] = []
    for list in lists {
      for trigger in list.triggers where trigger.active.exchange(false, ordering: .acquiringAndReleasing) {
        if let (observation, level, _) = trigger.path, level == 0 { rooted.append(observation) }
      }
    }
    for observation in rooted { observation.invalidate() }
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
}
