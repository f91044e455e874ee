import Synchronization

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
  /// Whether `state.retired` is not empty, readable without the lock, so that a delivery
  /// ending on a retired list can release it at once (see ``endDelivery(_:)``).
  private let hasRetired = Atomic<Bool>(false)

  init() {}

  /// Runs `body` on the state with the lock held, then publishes whether lists are retired.
  private func withState<Result>(_ body: (inout RegistrarState) -> Result) -> Result {
    lock.withLock {
      let result = body(&state)
      let retired = !state.retired.isEmpty
      if hasRetired.load(ordering: .relaxed) != retired {
        hasRetired.store(retired, ordering: .sequentiallyConsistent)
      }
      return result
    }
  }

  // MARK: - Registration

  /// Adds `trigger` to the list of its key. Returns `false`, adding nothing, if the object is
  /// being released.
  func add(_ trigger: Trigger) -> Bool {
    let (added, released, pruned) = withState { state in
      let (added, released) = state.insert(trigger)
      return (added, released, state.retired.isEmpty ? [] : state.pruneRetired())
    }
    withExtendedLifetime((released, pruned)) {}
    return added
  }

  /// Removes `trigger` from the list of its key; removing what is not there does nothing.
  /// Returns the lists that deliveries in flight still iterate with the trigger.
  func remove(_ trigger: Trigger) -> [ObserverList] {
    let (held, released, pruned) = withState { state in
      let (held, released) = state.remove(trigger)
      return (held, released, state.retired.isEmpty ? [] : state.pruneRetired())
    }
    withExtendedLifetime((released, pruned)) {}
    return held
  }

  /// Waits until no delivery iterates any of `lists` (lists of this context), then lets go of
  /// the retired ones.
  func waitUntilDelivered(_ lists: [ObserverList]) {
    for list in lists {
      Parking.wait { list.inFlight.pointee.load(ordering: .acquiring) == 0 }
    }
    let released = withState { $0.pruneRetired() }
    withExtendedLifetime(released) {}
  }

  /// How many triggers the context holds, over all keys.
  var triggerCount: Int {
    lock.withLock { state.lists.reduce(0) { $0 + ($1?.count ?? 0) } }
  }

  // MARK: - Delivery

  /// The list of key `index`, counted as held by one more delivery, or `nil` if the key has no
  /// observers. The list is not retained: the registrar keeps it until the delivery calls
  /// ``ObserverList/endDelivery()``.
  @usableFromInline
  func beginDelivery(key index: Int) -> Unmanaged<ObserverList>? {
    lock.withLock { state.beginDelivery(key: index) }.map(Unmanaged.passUnretained)
  }

  /// Ends a delivery of `list` (begun by ``beginDelivery(key:)`` or ``whileDelivering(_:_:)``).
  /// After the decrement only the context is touched: the list may be gone. If lists are
  /// retired, the one this delivery held may now be free; it is released at once (it may hold
  /// the last reference to a handler). The flag and the count are sequentially consistent, as
  /// is the registrar's reading of them: either this delivery sees the list retired, or the
  /// registrar sees the delivery ended and never retires the list.
  @inlinable
  func endDelivery(_ list: Unmanaged<ObserverList>) {
    _ = list._withUnsafeGuaranteedRef { $0.inFlight.pointee.subtract(1, ordering: .sequentiallyConsistent) }
    if listsAreRetired { releaseRetired() }
  }

  @usableFromInline
  var listsAreRetired: Bool { hasRetired.load(ordering: .sequentiallyConsistent) }

  @usableFromInline
  func releaseRetired() {
    let released = withState { $0.pruneRetired() }
    withExtendedLifetime(released) {}
  }

  /// The list of key `index` as a strong reference (for frames that outlive one delivery).
  func currentList(key index: Int) -> ObserverList? {
    lock.withLock { state.list(key: index) }
  }

  /// Runs `body`, which delivers from `list` (current or not), counted as a delivery of it.
  func whileDelivering<Result>(_ list: ObserverList, _ body: () -> Result) -> Result {
    withState { $0.hold(list) }
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
    let lists = withState { $0.tearDown() }
    var rooted: [PathObservation] = []
    for list in lists {
      list.withTriggers { triggers in
        for trigger in triggers where trigger.active.exchange(false, ordering: .acquiringAndReleasing) {
          if let (observation, level, _) = trigger.path, level == 0 { rooted.append(observation) }
        }
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
