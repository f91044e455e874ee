import KVOLiteLocking

/// The state of a ``ForwardedObservation``, behind its lock: which object the rest of the path
/// is registered on, whether a thread is moving that registration, and whether the observation
/// has ended. Its methods are the transitions; what they return, the owner does after
/// unlocking (registering with, and removing from, the intermediate object are calls into its
/// own `addObserver` and `removeObserver`, which may be any code).
///
/// One thread at a time moves the registration (``beginMove()``): a thread that finds another
/// moving asks it to look again, and the mover loops until the intermediate it placed on is
/// the one it read last. So the registration ends on the intermediate as it is after the last
/// change, whatever the interleaving, and two threads never register the rest twice.
struct ForwardingState {
  /// The object the rest of the path is registered on, if any. Not retained: an observation
  /// keeps no object alive, and an object's registrations end with it.
  weak var current: AnyObject?
  /// Whether a thread is moving the registration.
  private(set) var isMoving = false
  /// Whether another move was asked for while one was in progress.
  private(set) var movesAgain = false
  /// Whether the observation has ended.
  private(set) var isEnded = false
  /// The whole path's values read at each prior notification of the intermediate's change, per
  /// thread, innermost last: the `old` of the notification after it.
  private var olds: [ThreadIdentity: [Any?]] = [:]

  /// A thread wants the registration moved to the intermediate as it is now. `true` if this
  /// thread moves it; `false` if another is moving it and will look again.
  mutating func beginMove() -> Bool {
    guard !isEnded else { return false }
    guard !isMoving else {
      movesAgain = true
      return false
    }
    isMoving = true
    movesAgain = false
    return true
  }

  /// The mover read the intermediate: what it must remove the registration from (the object
  /// the registration is on, if it is not `target`), and whether it must register on `target`.
  mutating func move(to target: AnyObject?) -> (removeFrom: AnyObject?, register: Bool) {
    let placed = current
    guard placed !== target else { return (nil, false) }
    current = nil
    return (placed, !isEnded && target != nil)
  }

  /// The mover registered on `target` (or failed to, `nil`). Returns whether it must look
  /// again, and, if the observation has ended meanwhile, what to remove the registration from.
  mutating func finishMove(placed target: AnyObject?) -> (again: Bool, removeFrom: AnyObject?) {
    current = target
    if isEnded {
      isMoving = false
      let leftover = current
      current = nil
      return (false, leftover)
    }
    if movesAgain {
      movesAgain = false
      return (true, nil)
    }
    isMoving = false
    return (false, nil)
  }

  /// Ends the observation. Returns what to remove the registration from, unless a mover will
  /// (it sees the end when it finishes its step). Ending twice does nothing.
  mutating func end() -> AnyObject? {
    guard !isEnded else { return nil }
    isEnded = true
    olds = [:]
    guard !isMoving else { return nil }
    let leftover = current
    current = nil
    return leftover
  }

  /// Keeps `old`, read at a prior notification on `thread`.
  mutating func pushOld(_ old: Any?, thread: ThreadIdentity) {
    guard !isEnded else { return }
    olds[thread, default: []].append(old)
  }

  /// The value kept at the matching prior notification on `thread` (`nil` if none).
  mutating func popOld(thread: ThreadIdentity) -> Any?? {
    guard var stack = olds[thread], let old = stack.popLast() else { return nil }
    olds[thread] = stack.isEmpty ? nil : stack
    return .some(old)
  }
}
