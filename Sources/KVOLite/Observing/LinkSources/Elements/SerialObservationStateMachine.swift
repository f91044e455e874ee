import KVOLiteLocking

/// The state machine of a ``SerialObservation``: its queue of changes, the thread taking them,
/// the windows of its relationships' changes (``Windows``: which are taken as they were made),
/// what it follows, and whether it ended. Plain values; the observation (its storage) runs each
/// transition with its lock held and performs the ``Action`` it returns after unlocking: reads
/// what a reserved change carries, takes a change (the handler runs then), ends the
/// observations it was made of, releases what was dropped.
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
struct SerialObservationStateMachine<Change> {
  /// Who takes the changes.
  enum Taker: Equatable {
    case nobody
    /// `thread` takes changes; `calling`: it is calling the handler (a change made inside is
    /// taken at once, nested).
    case taking(ThreadIdentity, calling: Bool)
  }

  /// What the owner does after a transition.
  enum Action {
    /// Nothing (the observation ended, or there is nothing to do).
    case none
    /// A place in the queue was taken for a change: read what it carries (no lock held), then
    /// ``fill(_:with:)`` the place.
    case fill(place: Int)
    /// A place was taken for a change of a followed relationship that is taken as it was made
    /// (see ``Windows``): fill the place with its elements.
    case takeAsMade(place: Int)
    /// A place was taken for a change of a followed relationship that must be read again: read
    /// the relationship, then ``readDone()``, then fill the place.
    case readAgain(place: Int)
    /// Take the ready changes on this thread (`nested`: inside its own call of the handler),
    /// asking ``next(nested:)`` for each.
    case take(nested: Bool)
    /// Take `change` (the handler may be called), then ask for the next one.
    case process(Change)
    /// Call the handler (then ``endCall()``).
    case call
    /// Release `dropped` after unlocking.
    case release([Change?])
    /// End `tokens` (the observations this one is made of) after unlocking, since ending them
    /// may wait for their deliveries; release `dropped`.
    case end(tokens: [ObservationToken], dropped: [Change?])
  }

  private(set) var isEnded = false
  private(set) var taker = Taker.nobody
  /// Which changes of the followed relationships are taken as they were made.
  private(set) var windows = Windows()
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

  /// Takes a place for a change: `.fill(place:)`, or nothing once ended.
  mutating func reserve() -> Action {
    guard let place = takePlace() else { return .none }
    return .fill(place: place)
  }

  /// A place for a change; `nil` once ended.
  private mutating func takePlace() -> Int? {
    guard !isEnded else { return nil }
    pending.append(nil)
    return headPlace + pending.count - 1 - head
  }

  /// The prior notification of a change of a followed relationship, on `thread`: opens its
  /// window (see ``Windows``), and takes a place for it if it is handed on (`.fill(place:)`).
  mutating func priorNotification(on thread: ThreadIdentity, handsOn: Bool) -> Action {
    windows.willChange(on: thread)
    return handsOn ? reserve() : .none
  }

  /// The notification of a change of a followed relationship, on `thread`: closes its window
  /// and takes a place for it, to be taken as it was made (never unless `canTakeAsMade`) or read
  /// again. Once ended, a change that would be read again still counts as a reading in
  /// progress until ``readDone()``: `.readAgain` with no place then is `.none`.
  mutating func notification(on thread: ThreadIdentity, canTakeAsMade: Bool) -> Action {
    let asMade = windows.didChange(on: thread, canTakeAsMade: canTakeAsMade)
    guard let place = takePlace() else {
      if !asMade { windows.didRead() }
      return .none
    }
    return asMade ? .takeAsMade(place: place) : .readAgain(place: place)
  }

  /// The relationship was read again after a change (``Action/readAgain(place:)``).
  mutating func readDone() -> Action {
    windows.didRead()
    return .none
  }

  /// A change taken as it was made did not fit what the observation holds: the next change
  /// is read again.
  mutating func lostTrack() -> Action {
    windows.lostTrack()
    return .none
  }

  /// Puts `change` in `place`; `.release` with it if it was dropped (the queue was emptied
  /// since the place was taken).
  mutating func fill(_ place: Int, with change: Change) -> Action {
    let index = head + place - headPlace
    guard place >= headPlace, index < pending.count else { return .release([change]) }
    pending[index] = change
    return .none
  }

  /// The calling `thread` wants the ready changes taken: `.take` unless another thread takes
  /// them, or this one does already outside a call of the handler (then it goes on when it is
  /// done).
  mutating func startTaking(_ thread: ThreadIdentity) -> Action {
    guard !isEnded else { return .none }
    switch taker {
    case .nobody:
      taker = .taking(thread, calling: false)
      return .take(nested: false)
    case .taking(thread, calling: true):
      taker = .taking(thread, calling: false)
      return .take(nested: true)
    case .taking:
      return .none
    }
  }

  /// The next ready change, taken out of the queue (`.process`); nothing when none is ready (or
  /// the observation ended), and then the taker stops taking (goes back to its call, if
  /// `nested`).
  mutating func next(nested: Bool) -> Action {
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
      return .process(change)
    }
    if case .taking(let thread, _) = taker {
      taker = nested ? .taking(thread, calling: true) : .nobody
    }
    return .none
  }

  /// The taker calls the handler: `.call`, or nothing once ended.
  mutating func beginCall() -> Action {
    guard !isEnded else { return .none }
    if case .taking(let thread, _) = taker { taker = .taking(thread, calling: true) }
    return .call
  }

  /// The taker's call of the handler returned.
  mutating func endCall() -> Action {
    if case .taking(let thread, _) = taker { taker = .taking(thread, calling: false) }
    return .none
  }

  /// `thread` takes changes while the observation starts: changes heard of meanwhile wait.
  mutating func beginStart(_ thread: ThreadIdentity) -> Action {
    taker = .taking(thread, calling: false)
    return .none
  }

  /// Empties the queue (the start reads the model after what it held): `.release` what it held.
  mutating func dropPending() -> Action {
    .release(takePending())
  }

  private mutating func takePending() -> [Change?] {
    defer {
      headPlace += pending.count - head
      pending = []
      head = 0
    }
    return pending
  }

  /// Keeps `token` as a part of the observation; `.end` with it if the observation ended (the
  /// owner ends it at once).
  mutating func keep(_ token: ObservationToken) -> Action {
    guard !isEnded else { return .end(tokens: [token], dropped: []) }
    sources.append(token)
    return .none
  }

  /// Ends the observation: `.end` with the observations it was made of and the changes it
  /// dropped; nothing if it had ended already.
  mutating func end() -> Action {
    guard !isEnded else { return .none }
    isEnded = true
    var tokens = sources
    sources = []
    for index in memberships.indices { tokens += memberships[index].endAll() }
    return .end(tokens: tokens, dropped: takePending())
  }
}
