import KVOLiteLocking

/// The state of one subscription's serial drain (``SerialDrain``): the line of its scheduled
/// actions, in the order their places were taken, and the thread draining it. A value type
/// whose mutating methods are the transitions; each returns what the owner must do after
/// unlocking. Not thread-safe: the owner calls it with its lock held.
///
/// A place is taken when an action is scheduled (``reserve()``) and filled when the scheduler
/// runs it (``fill(_:with:by:)``); an action that has no place to keep (a timer's) takes and
/// fills one at once when it runs (``append(_:by:)``). The line is run from the front, one
/// action at a time, by one thread: whichever filled a place while nobody was draining. A
/// thread that fills a place while another drains leaves its action to that one; a front place
/// not filled yet stops the drain until its action runs. So each action runs no earlier than
/// the scheduler ran it, and in the order the places were taken, whatever order the scheduler
/// runs them in (RxSwift's `observeOn` on a concurrent scheduler is the same drain).
///
///     state            | fill / append               | delivered (by the drainer) | end
///     -----------------+-----------------------------+----------------------------+-----------
///     idle             | front filled: -> draining;  | (never)                    | -> ended;
///                      | .run(front); else .none     |                            | drop all
///     draining(d, n)   | by d (inside its action: a  | front filled: .run(front); | -> ended;
///                      | scheduler that runs at      | else n > 1: -> (d, n - 1), | drop all
///                      | once): front filled:        | n = 1: -> idle; .none      |
///                      | -> (d, n + 1), .run(front); |                            |
///                      | else .none                  |                            |
///     ended            | .discard(action)            | .none                      | nothing
///
/// ``reserve()`` takes a place in any state but `ended`. Ended is the one end: the owner was
/// cancelled, and what is left in the line is dropped (handed out to release after unlocking).
struct DrainStateMachine<Action> {
  /// A place in the line.
  struct Ticket: Equatable, Sendable {
    let number: Int
  }

  /// Who drains the line.
  enum Phase: Equatable {
    /// Nobody.
    case idle
    /// `thread`, inside `depth` nested runs of the line (more than one only when an action
    /// fills a place from inside another, on a scheduler that runs actions at once).
    case draining(ThreadIdentity, depth: Int)
    /// The line was ended: nothing more runs.
    case ended
  }

  /// What the owner does after a transition.
  enum Next {
    /// Run this action (the calling thread is the drainer), then call ``delivered(by:)``.
    case run(Action)
    /// Nothing: another thread drains, or the front action has not been run by the scheduler.
    case none
    /// The line has ended: release this action, without running it.
    case discard(Action)
  }

  private(set) var phase = Phase.idle
  /// The places from the front one on: an action once filled, `nil` before.
  private var places: [Action?] = []
  /// Where the front place is in `places` (earlier slots are spent).
  private var head = 0
  /// The ticket of the front place.
  private var firstTicket = 0

  init() {}

  /// The places in the line, filled or not.
  var count: Int { places.count - head }

  /// Whether the front place is filled.
  var frontIsFilled: Bool { head < places.count && places[head] != nil }

  /// Takes the next place in the line (ended: a place that will never run).
  mutating func reserve() -> Ticket {
    let ticket = Ticket(number: firstTicket + count)
    if phase == .ended {
      firstTicket += 1
    } else {
      places.append(nil)
    }
    return ticket
  }

  /// The scheduler ran the action whose place is `ticket`: it waits there, and `thread` drains
  /// if nobody does (or if it is the drainer, inside a run).
  mutating func fill(_ ticket: Ticket, with action: Action, by thread: ThreadIdentity) -> Next {
    let index = head + ticket.number - firstTicket
    guard phase != .ended, ticket.number >= firstTicket, index < places.count else {
      return .discard(action)
    }
    require(places[index] == nil, "a serial drain's place was filled twice")
    places[index] = action
    return start(by: thread)
  }

  /// An action that took no place (a timer's) runs now: it takes the last place, filled.
  mutating func append(_ action: Action, by thread: ThreadIdentity) -> Next {
    fill(reserve(), with: action, by: thread)
  }

  /// The drainer ran an action: the next one, or it stops draining.
  mutating func delivered(by thread: ThreadIdentity) -> Next {
    guard case .draining(let drainer, let depth) = phase else { return .none }
    require(drainer == thread, "a serial drain was continued by a thread that does not drain it")
    if let action = takeFront() { return .run(action) }
    phase = depth > 1 ? .draining(drainer, depth: depth - 1) : .idle
    return .none
  }

  /// The line ends: what waits in it is dropped (returned, for the owner to release after
  /// unlocking), places filled later are discarded. An action running now goes on.
  mutating func end() -> [Action] {
    let dropped = places[head...].compactMap { $0 }
    firstTicket += count
    places = []
    head = 0
    phase = .ended
    return dropped
  }

  private mutating func start(by thread: ThreadIdentity) -> Next {
    switch phase {
    case .idle:
      guard let action = takeFront() else { return .none }
      phase = .draining(thread, depth: 1)
      return .run(action)
    case .draining(let drainer, let depth):
      guard drainer == thread, let action = takeFront() else { return .none }
      phase = .draining(drainer, depth: depth + 1)
      return .run(action)
    case .ended:
      return .none
    }
  }

  /// Removes and returns the front action, if it is filled.
  private mutating func takeFront() -> Action? {
    guard frontIsFilled else { return nil }
    let action = places[head].take()
    head += 1
    firstTicket += 1
    if head == places.count {
      places.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32, head * 2 >= places.count {
      places.removeFirst(head)
      head = 0
    }
    return action
  }
}
