import KVOLiteLocking

/// The state machine of a ``SerialObservation``: its queue of changes, the thread taking them,
/// what it follows, and whether it ended. Plain values; the observation (its storage) runs each
/// transition with its lock held and performs what it returns after unlocking: takes a change
/// (the handler runs then), ends the observations it was made of, releases what was dropped.
///
/// ```
///                 begin start / take                  next: none ready
///    not taking ---------------------> taking ------------------------------> not taking
///                                      |    ^
///                      begin a call    |    | end the call
///                                      v    |
///                                   taking, calling  --take (same thread)-->  taking, nested
///                                                    <--next: none ready---
///    any state --end--> ended (nothing reserved, taken or called after)
/// ```
///
/// - **Reserve, then fill.** A change takes a place (``reserve()``) before what it carries is
///   read, then fills it (``fill(_:with:)``); places are taken in order, and a place not filled
///   yet stops the taking there.
/// - **One taker.** ``startTaking(_:)`` makes the calling thread the taker if nobody is; a
///   thread that finds another taker leaves its change to it. The taker calling the handler
///   (``beginCall()``) may take changes made inside the call at once, on its thread (nested).
/// - **Ended** is the one final state: ``end()`` empties the queue and hands over the
///   observations to end.
struct SerialObservationState<Change> {
  /// Who takes the changes.
  enum Taker: Equatable {
    case nobody
    /// `thread` takes changes; `calling`: it is calling the handler (a change made inside is
    /// taken at once, nested).
    case taking(ThreadIdentity, calling: Bool)
  }

  private(set) var isEnded = false
  private(set) var taker = Taker.nobody
  /// Changes reserved and not taken yet, oldest first from `head`; `nil` until filled. Taken
  /// ones are cleared, and the array compacted when half of it is taken, so that taking one is
  /// O(1) amortized.
  private var pending: [Change?] = []
  private var head = 0
  /// The place of `pending[head]`: places count every reservation.
  private var headPlace = 0
  /// The observations this one is made of (of relationships, of other keys).
  private var sources: [ObservationToken] = []
  /// The relationships followed, and what is known of their elements: data that the
  /// observation reads and changes under its lock, which no transition decides on.
  var memberships: [ElementMembership]

  init(memberships: [ElementMembership]) {
    self.memberships = memberships
  }

  /// Changes reserved and not taken.
  var pendingCount: Int { pending.count - head }

  /// Takes a place for a change; `nil` once ended.
  mutating func reserve() -> Int? {
    guard !isEnded else { return nil }
    pending.append(nil)
    return headPlace + pending.count - 1 - head
  }

  /// Puts `change` in `place`; returns it if it was dropped (the queue was emptied since the
  /// place was taken), to release after unlocking.
  mutating func fill(_ place: Int, with change: Change) -> Change? {
    let index = head + place - headPlace
    guard place >= headPlace, index < pending.count else { return change }
    pending[index] = change
    return nil
  }

  /// How ``startTaking(_:)`` decided.
  enum Start: Equatable {
    /// Someone else takes (or will take) the changes, or the observation ended.
    case leave
    /// The thread takes changes until none is ready; `nested` inside its own call.
    case take(nested: Bool)
  }

  /// The calling `thread` wants the ready changes taken: it takes them unless another thread
  /// does, or it does already outside a call of the handler (then it goes on when it is done).
  mutating func startTaking(_ thread: ThreadIdentity) -> Start {
    guard !isEnded else { return .leave }
    switch taker {
    case .nobody:
      taker = .taking(thread, calling: false)
      return .take(nested: false)
    case .taking(thread, calling: true):
      taker = .taking(thread, calling: false)
      return .take(nested: true)
    case .taking:
      return .leave
    }
  }

  /// The next ready change, taken out of the queue; `nil` when none is ready (or the
  /// observation ended), and then the taker stops taking (goes back to its call, if `nested`).
  mutating func next(nested: Bool) -> Change? {
    if !isEnded, head < pending.count, let change = pending[head] {
      pending[head] = nil
      head += 1
      headPlace += 1
      if head == pending.count {
        pending.removeAll(keepingCapacity: true)
        head = 0
      } else if head >= 32, head * 2 >= pending.count {
        pending.removeFirst(head)
        head = 0
      }
      return change
    }
    if case .taking(let thread, _) = taker {
      taker = nested ? .taking(thread, calling: true) : .nobody
    }
    return nil
  }

  /// The taker calls the handler; `false` once ended (nothing is called).
  mutating func beginCall() -> Bool {
    guard !isEnded else { return false }
    if case .taking(let thread, _) = taker { taker = .taking(thread, calling: true) }
    return true
  }

  /// The taker's call of the handler returned.
  mutating func endCall() {
    if case .taking(let thread, _) = taker { taker = .taking(thread, calling: false) }
  }

  /// `thread` takes changes while the observation starts: changes heard of meanwhile wait.
  mutating func beginStart(_ thread: ThreadIdentity) {
    taker = .taking(thread, calling: false)
  }

  /// Empties the queue (the start reads the model after what it held); returns what it held,
  /// to release after unlocking.
  mutating func dropPending() -> [Change?] {
    defer {
      headPlace += pending.count - head
      pending = []
      head = 0
    }
    return pending
  }

  /// Keeps `token` as a part of the observation; returns it if the observation ended (the
  /// caller ends it at once).
  mutating func keep(_ token: ObservationToken) -> ObservationToken? {
    guard !isEnded else { return token }
    sources.append(token)
    return nil
  }

  /// What ``end()`` hands over.
  struct Ended {
    /// The observations to end (after unlocking: ending them may wait for their deliveries).
    var tokens: [ObservationToken]
    /// The changes dropped, to release after unlocking.
    var dropped: [Change?]
  }

  /// Ends the observation; `nil` if it had ended already.
  mutating func end() -> Ended? {
    guard !isEnded else { return nil }
    isEnded = true
    var tokens = sources
    sources = []
    for index in memberships.indices { tokens += memberships[index].endAll() }
    return Ended(tokens: tokens, dropped: dropPending())
  }
}
