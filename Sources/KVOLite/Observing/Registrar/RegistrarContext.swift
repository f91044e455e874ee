import KVOLiteLocking
import Synchronization

/// The storage of a registrar's state machine (``RegistrarStateMachine``): the shape of Swift
/// Observation's registrar context.
///
/// Every method takes the object's property lock, runs one transition of the machine, performs
/// the part of its ``RegistrarStateMachine/Action`` that must happen under the lock (closing a
/// replaced list's gate), unlocks, and then performs the rest: releasing replaced lists and
/// removed triggers (releasing a trigger may release a handler, whose captures may run a
/// `deinit`), ending the observations rooted at a released object; the lists to wait for go to
/// the caller. Nothing runs user code with the lock held.
///
/// ## The published lists (the fast path)
///
/// A set of an observed property already holds the object's ``PropertyLock``, which is also the
/// lock of this state: so a set reads the key's current list in the state (its published
/// list) with no other lock, entering the list's gate there (see ``RegistrarStateMachine`` for the
/// states of a key). The property lock is found from the
/// object's address, not its memory, so even a removal after the object is gone can take it.
///
/// Lock order: a path observation's `wiring`, then the property lock. Nothing is locked while
/// the property lock is held, and it is not held while anything outside KVOLite runs.
@usableFromInline
final class RegistrarContext: @unchecked Sendable {
  // @unchecked: `state` is only touched with `objectLock` held; for the same reason its
  // accesses are not checked for exclusivity at run time (the check would cost more than the
  // lock).
  @usableFromInline @exclusivity(unchecked) var state: RegistrarStateMachine
  /// The object's property lock: the lock of `state`.
  private let objectLock: PropertyLock
  /// The keys of the object's class.
  @usableFromInline let table: KeyTable
  /// Swift Observation's registrar of the object, made on the first tracked read of an object
  /// whose class is `Observable` (see ``SwiftObservationBox``); one word otherwise.
  private let swiftBox = OnceReference<SwiftObservationBox>()

  /// A context for the object at `objectAddress`, whose class's keys are `table`.
  init(objectAddress: UnsafeRawPointer, table: KeyTable) {
    objectLock = PropertyLock(for: objectAddress)
    self.table = table
    state = RegistrarStateMachine(keyCount: table.entries.count)
  }

  /// The object's ``SwiftObservationBox``, made on first use.
  func swiftObservationBox() -> SwiftObservationBox {
    swiftBox.load() ?? swiftBox.storeIfNil(SwiftObservationBox())
  }

  /// The object's ``SwiftObservationBox``, if a read of it was ever tracked.
  var existingSwiftObservationBox: SwiftObservationBox? { swiftBox.load() }

  /// Runs `body` (a read of the state) with the property lock held.
  private func withState<Result>(_ body: (inout RegistrarStateMachine) -> Result) -> Result {
    objectLock.lock()
    defer { objectLock.unlock() }
    return body(&state)
  }

  /// Runs `transition` with the property lock held, and invalidates the observations its
  /// action ends after unlocking. Returns the action, for what is left (the lists to wait for,
  /// a manual frame to finish); what it lets go of is released with it.
  @discardableResult
  private func run(_ transition: (inout RegistrarStateMachine) -> RegistrarStateMachine.Action)
    -> RegistrarStateMachine.Action
  {
    objectLock.lock()
    let action = transition(&state)
    objectLock.unlock()
    switch action {
    case .tornDown(_, let rooted, _, _):
      for observation in rooted { observation.invalidate() }
    case .release(_, let observation?): observation.invalidate()
    default: break
    }
    return action
  }

  // MARK: - Registration

  /// Adds `trigger` to the list of its key. Returns `false`, adding nothing, if the object is
  /// being released.
  func add(_ trigger: Trigger) -> Bool {
    // The hot paths run their transition directly (no action to inspect but this one).
    objectLock.lock()
    let action = state.add(trigger)
    objectLock.unlock()
    guard case .refused = action else { return true }
    return false
  }

  /// Ends `trigger` and removes it from the list of its key; removing what is not there does
  /// nothing. Returns the lists that deliveries in flight still iterate with the trigger.
  func remove(_ trigger: Trigger) -> [ObserverList] {
    objectLock.lock()
    let action = state.remove(trigger)
    objectLock.unlock()
    // The replaced list, the trigger and the pruned lists are released here, after unlocking
    // (moved out of the action, not copied).
    switch consume action {
    case .removed(_, _, let waitFor, _): return waitFor
    default: return []
    }
  }

  /// Waits until no delivery iterates any of `lists` (lists of this context, closed), unless
  /// this thread is delivering; then forgets the retired lists that are done.
  func waitUntilDelivered(_ lists: [ObserverList]) {
    for list in lists { list.gate.pointee.closeAndWait() }
    run { $0.forgetDelivered() }
  }

  /// How many triggers the context holds, over all keys.
  var triggerCount: Int { withState { $0.triggerCount } }

  // MARK: - Delivery

  /// The list of key `index`, retained and entered by one more delivery, or `nil` if the key
  /// has no observers. Call with the object's property lock held; end the delivery with
  /// ``endDelivery(_:)``.
  @inlinable
  func beginDelivery(key index: Int) -> ObserverList? {
    guard index < state.lists.count, let list = state.lists[index] else { return nil }
    // Retained here, under the property lock (the registrar releases a list only after
    // replacing it under that lock, and unlocking is a call the optimizer cannot move a
    // retain past). A published list is open: the enter never fails.
    return list.gate.pointee.enter() ? list : nil
  }

  /// Ends a delivery of `list` (begun by ``beginDelivery(key:)``, ``enterCurrentList(key:)``
  /// or ``lateList(after:)``), after its last use of the list.
  @inlinable
  func endDelivery(_ list: ObserverList) {
    list.gate.pointee.leave()
  }

  /// The list of key `index` now, or `nil`.
  func currentList(key index: Int) -> ObserverList? {
    withState { $0.currentList(key: index) }
  }

  /// The list of key `index` now, entered by one more delivery (so that it does not change
  /// while it is read, and ending one of its triggers waits for this delivery); end the
  /// delivery with ``endDelivery(_:)``.
  func enterCurrentList(key index: Int) -> ObserverList? {
    withState { state in
      guard let list = state.currentList(key: index), list.gate.pointee.enter() else {
        return nil
      }
      return list
    }
  }

  /// For a change delivered from `list`, replaced since: the current list of its key, entered,
  /// if triggers there may take the change in flight (see ``RegistrarStateMachine``); end the
  /// delivery with ``endDelivery(_:)``.
  func lateList(after list: ObserverList) -> ObserverList? {
    withState { state in
      guard let current = state.lateList(key: list.keyIndex, after: list),
        current.gate.pointee.enter()
      else { return nil }
      return current
    }
  }

  /// Runs `body`, which delivers from `list` (the key's list at will-time, current or not),
  /// counted as a delivery of the key's current list, which holds every trigger of `list`
  /// still active (there is none if there is no current list).
  func whileDelivering<Result>(_ list: ObserverList, _ body: () -> Result) -> Result {
    // `list`'s header is read under the lock: it may be the published list, changed in place.
    let current = withState { state -> ObserverList? in
      guard let current = state.currentList(key: list.keyIndex), current.gate.pointee.enter()
      else { return nil }
      return current
    }
    guard let current else { return body() }
    defer { endDelivery(current) }
    return body()
  }

  // MARK: - Manual notification

  /// Keeps a frame between `willChangeValue` and `didChangeValue`.
  func pushManualFrame(_ frame: ManualFrame) {
    run { $0.pushManualFrame(frame) }
  }

  /// The innermost pending frame of key `index` on `thread`, removed; `nil` if there is none.
  func popManualFrame(thread: ThreadIdentity, key index: Int) -> ManualFrame? {
    guard case .finish(let frame) = run({ $0.popManualFrame(thread: thread, key: index) }) else {
      return nil
    }
    return frame
  }

  #if DEBUG
    /// Whether this thread is between a `willChangeValue` and its `didChangeValue` for key
    /// `index`. Call with the object's property lock held.
    @usableFromInline
    func isInManualPair(key index: Int) -> Bool {
      state.hasManualFrame(thread: .current, key: index)
    }

    /// Warns (once per class and key) that a set of key `index` was made inside a
    /// will/did pair of it (see ``ManualPairWarning``). Call with no lock held.
    @usableFromInline
    func warnOfSetInManualPair(key index: Int) {
      ManualPairWarning.warn(table, key: index)
    }
  #endif

  // MARK: - The classic observer API

  /// Keeps a classic registration (it is notified from now on); `false` (keeping nothing) if
  /// the object is being released.
  func addClassic(_ registration: ClassicRegistration) -> Bool {
    guard case .refused = run({ $0.keepClassic(registration) }) else { return true }
    return false
  }

  /// Removes the most recent classic registration that `matches`, if any, and ends its
  /// observation after unlocking.
  func removeClassic(where matches: (ClassicRegistration) -> Bool) {
    run { $0.removeClassic(where: matches) }
  }

  // MARK: - The end

  /// Ends every observation of the released object: direct observations become inert, and
  /// observations rooted at the object are invalidated (detaching their links from the
  /// objects further along). The lists, the classic registrations' tokens (a token's release
  /// invalidates it) and the manual frames are released after unlocking.
  func tearDown() {
    run { $0.tearDown() }
  }
}

/// A `willChangeValue` waiting for its `didChangeValue` on the same thread.
struct ManualFrame {
  let thread: ThreadIdentity
  let key: Int
  /// `nil` when nobody observed the key at will-time.
  let frame: ChangeFrame?
  /// The key's value at will-time.
  let old: Any?
  /// The value the did-time reports, when the will-time knew it; `nil`: read it then.
  let new: Any?
}

/// The calling thread: a `didChangeValue` finishes the innermost `willChangeValue` of its key
/// made on the same thread, as Foundation matches them.
func currentThreadID() -> ThreadIdentity { .current }
