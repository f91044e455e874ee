import KVOLiteLocking

/// The state machine of a ``ForwardedObservation``, behind its lock: which object the rest of
/// the path is registered on, whether a thread is moving that registration, and whether the
/// observation has ended. Its methods are the transitions; the ``Action`` each returns, the
/// owner performs after unlocking (registering with, and removing from, the intermediate
/// object are calls into its own `addObserver` and `removeObserver`, which may be any code).
///
/// One thread at a time moves the registration (``beginMove()``): a thread that finds another
/// moving asks it to look again, and the mover loops until the intermediate it placed on is
/// the one it read last. So the registration ends on the intermediate as it is after the last
/// change, whatever the interleaving, and two threads never register the rest twice.
struct ForwardingStateMachine {
  /// The object the rest of the path is registered on, if any. Not retained: an observation
  /// keeps no object alive, and an object's registrations end with it.
  weak var current: AnyObject?
  /// Whether a thread is moving the registration.
  private(set) var isMoving = false
  /// Whether another move was asked for while one was in progress.
  private(set) var movesAgain = false
  /// Whether the observation has ended.
  private(set) var isEnded = false

  /// What the owner does after a transition.
  enum Action {
    /// Nothing.
    case none
    /// Move the registration: read the intermediate as it is now (no lock held), then
    /// ``move(to:)``.
    case move
    /// Remove the registration from `removeFrom` if there is one, register on the intermediate
    /// read if `register`, then ``finishMove(placed:)``.
    case step(removeFrom: AnyObject?, register: Bool)
    /// Another move was asked for meanwhile: read the intermediate again, then ``move(to:)``.
    case again
    /// Remove the registration from this object (the observation ended).
    case remove(AnyObject)
    /// The whole path's old value, kept at the matching prior notification.
    case old(Any?)
  }
  /// The whole path's values read at each prior notification of the intermediate's change, per
  /// thread, innermost last: the `old` of the notification after it.
  private var olds: [ThreadIdentity: [Any?]] = [:]

  /// A thread wants the registration moved to the intermediate as it is now: `.move` if this
  /// thread moves it; nothing if another is moving it (and will look again) or it ended.
  mutating func beginMove() -> Action {
    guard !isEnded else { return .none }
    guard !isMoving else {
      movesAgain = true
      return .none
    }
    isMoving = true
    movesAgain = false
    return .move
  }

  /// The mover read the intermediate, `target`: `.step`, removing the registration from the
  /// object it is on if that is not `target`, and registering on `target` if it must.
  mutating func move(to target: AnyObject?) -> Action {
    let placed = current
    guard placed !== target else { return .step(removeFrom: nil, register: false) }
    current = nil
    return .step(removeFrom: placed, register: !isEnded && target != nil)
  }

  /// The mover registered on `target` (or failed to, `nil`): `.again` if it must look again;
  /// `.remove` if the observation has ended meanwhile (the registration just placed); else
  /// nothing (the move is done).
  mutating func finishMove(placed target: AnyObject?) -> Action {
    current = target
    if isEnded {
      isMoving = false
      return takeLeftover()
    }
    if movesAgain {
      movesAgain = false
      return .again
    }
    isMoving = false
    return .none
  }

  /// Ends the observation: `.remove` the registration, unless a mover will (it sees the end
  /// when it finishes its step). Ending twice does nothing.
  mutating func end() -> Action {
    guard !isEnded else { return .none }
    isEnded = true
    olds = [:]
    guard !isMoving else { return .none }
    return takeLeftover()
  }

  /// The object the registration is on, let go of: `.remove` it from there.
  private mutating func takeLeftover() -> Action {
    defer { current = nil }
    return current.map { .remove($0) } ?? .none
  }

  /// Keeps `old`, read at a prior notification on `thread`.
  mutating func pushOld(_ old: Any?, thread: ThreadIdentity) -> Action {
    guard !isEnded else { return .none }
    olds[thread, default: []].append(old)
    return .none
  }

  /// The value kept at the matching prior notification on `thread`: `.old`, or nothing.
  mutating func popOld(thread: ThreadIdentity) -> Action {
    guard var stack = olds[thread], let old = stack.popLast() else { return .none }
    olds[thread] = stack.isEmpty ? nil : stack
    return .old(old)
  }
}
