/// The state machine of a ``LinksObservation``: the links it keeps (one per object and key,
/// in the order its readings wanted them), which reading placed them, and whether it ended.
/// Plain values; the observation (its storage) runs each transition with its lock held and
/// performs the action it returns.
///
/// ```
///            beginReading: .read(g), g = ++begun
///   placed  --------------------------------------> placed, g reading (no lock held)
///     ^                                                     |
///     |  place(g, wanted), if g > placed (placed = g):      |
///     |  .place(link: the wanted not linked yet,            |
///     +---------- detach: the links not wanted) <-----------+
///                 (a later reading placed first, or the end: .none)
///   any --end--> ended: .detach(every link); nothing begins or places after
/// ```
///
/// One machine for every source of links: the objects along declared branches (a chain's
/// relationships and last key, a derived key's declared inputs) and the keys a getter read
/// (inputs found by reading) both become a reading's wanted links, in one pass. Concurrent
/// readings are ordered by their generation, taken before they read: one places its links only
/// if no later one has placed its own. A later generation read later, after every change that
/// came before it, so a stale reading never overwrites a fresher one, and the reading after
/// the last change always leaves the links that change's value read.
///
/// The one action performed before unlocking is placing the new links (adding each trigger to
/// its object's registrar, under that object's property lock: the one nesting of the lock
/// order), so that two readings never place links at once; detaching runs after unlocking.
struct LinksStateMachine {
  /// Where a link sits: a key of an object (by identity; a link keeps no object alive).
  struct Key: Hashable {
    let object: ObjectIdentifier
    let key: Int
  }

  /// A link a reading wants.
  struct Wanted: Equatable {
    let key: Key
    /// Whether a change through it reads the links again (a relationship along a chain, any
    /// input found by reading), rather than only the value (a chain's last key).
    let rereads: Bool
    /// Whether it sits on the observation's root: the root's end ends the observation.
    let isRoot: Bool
  }

  /// What the owner does after a transition.
  enum Action {
    /// Nothing: ended, or a later reading placed its links first.
    case none
    /// Read (the objects along the branches, the getters that find inputs) for reading
    /// `generation`, with no lock held, then ``place(_:wanted:)``.
    case read(generation: UInt64)
    /// Place a link on `wanted[i]` for each `i` of `link`, with the lock held, reporting each
    /// to ``linked(_:for:)``; detach the triggers of `detach` after unlocking.
    case place(link: [Int], detach: [Trigger])
    /// Detach `detach` after unlocking: the observation ended.
    case detach([Trigger])
  }

  /// A placed link.
  private struct Slot {
    let wanted: Wanted
    let trigger: Trigger
  }

  private(set) var isEnded = false
  /// Readings begun: the last one's generation.
  private(set) var begun: UInt64 = 0
  /// The generation of the reading that placed the links.
  private(set) var placed: UInt64 = 0
  /// The links, in the order the readings wanted them.
  private var slots: [Slot] = []
  /// Each link's place in `slots`.
  private var positions: [Key: Int] = [:]

  /// How many links are placed.
  var linkCount: Int { slots.count }

  /// The links placed, in order (for tests).
  var links: [Wanted] { slots.map(\.wanted) }

  /// Begins a reading: its generation, or nothing once ended.
  mutating func beginReading() -> Action {
    guard !isEnded else { return .none }
    begun += 1
    return .read(generation: begun)
  }

  /// Reading `generation` wants `wanted` (one per key), unless a later reading placed its own
  /// or the observation ended (`.none`). Links still wanted stay (unless their trigger ended:
  /// their object was released, and another may live at its address now); the others are
  /// handed back to detach. O(links) when nothing changed; a hash lookup per wanted link
  /// otherwise.
  mutating func place(_ generation: UInt64, wanted: [Wanted]) -> Action {
    guard !isEnded, generation > placed else { return .none }
    placed = generation
    if wanted.count == slots.count,
      zip(slots, wanted).allSatisfy({ $0.wanted == $1 && $0.trigger.isActive })
    {
      return .place(link: [], detach: [])
    }
    var kept = Array(repeating: false, count: slots.count)
    var link: [Int] = []
    for (index, want) in wanted.enumerated() {
      if let position = positions[want.key], slots[position].wanted == want,
        slots[position].trigger.isActive
      {
        kept[position] = true
      } else {
        link.append(index)
      }
    }
    var detach: [Trigger] = []
    if kept.contains(false) {
      var remaining: [Slot] = []
      remaining.reserveCapacity(slots.count)
      for (position, slot) in slots.enumerated() {
        if kept[position] { remaining.append(slot) } else { detach.append(slot.trigger) }
      }
      slots = remaining
      positions = Dictionary(
        uniqueKeysWithValues: slots.enumerated().map { ($1.wanted.key, $0) })
    }
    return .place(link: link, detach: detach)
  }

  /// Records the link placed on `wanted` (for ``place(_:wanted:)``'s action).
  mutating func linked(_ trigger: Trigger, for wanted: Wanted) {
    positions[wanted.key] = slots.count
    slots.append(Slot(wanted: wanted, trigger: trigger))
  }

  /// Ends the observation: every link is handed back to detach (`.none` if it had ended).
  mutating func end() -> Action {
    guard !isEnded else { return .none }
    isEnded = true
    defer {
      slots = []
      positions = [:]
    }
    return .detach(slots.map(\.trigger))
  }
}
