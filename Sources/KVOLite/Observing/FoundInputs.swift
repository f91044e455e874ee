/// The state machine of a ``FoundInputsObservation``'s found inputs: which `(object, key)`
/// pairs its getter read last, the link on each, which re-read placed them, and whether the
/// observation ended. Plain values; the observation runs each transition with its `tracking`
/// lock held, and detaches the links a transition hands back after unlocking.
///
/// ```
///              begin a re-read (generation g = ++begun)
///   tracked  ----------------------------------------------> tracked, g reading the getter
///     ^                                                              |
///     |  place, if g > placed (placed = g): inputs no longer read    |
///     +---- handed back to detach, newly read ones to link <--------+
///                     (if a later generation placed first: nothing)
///   tracked --end--> ended (links handed back; no re-read begins or places after)
/// ```
///
/// As for ``PathWiring``, concurrent re-reads are ordered by their generation, taken before
/// the getter runs: a re-read places its inputs only if no later one placed its own, so the
/// re-read after the last change always leaves the inputs that change's value read.
struct FoundInputs {
  /// One input: a key of an object (by identity; the link keeps neither alive).
  struct Input: Hashable {
    let object: ObjectIdentifier
    let key: Int
  }

  /// What placing a re-read's inputs does: the inputs to link now (with the lock held), and
  /// the links of inputs no longer read, to detach after unlocking.
  struct Plan {
    var link: [Input] = []
    var detach: [Trigger] = []
  }

  private(set) var isEnded = false
  /// Re-reads begun: the last one's generation.
  private var begun: UInt64 = 0
  /// The generation of the re-read that placed the links.
  private var placed: UInt64 = 0
  /// The link on each input read last.
  private var links: [Input: Trigger] = [:]

  /// How many inputs are linked.
  var count: Int { links.count }

  /// Begins a re-read: its generation, or `nil` once ended.
  mutating func beginRead() -> UInt64? {
    guard !isEnded else { return nil }
    begun += 1
    return begun
  }

  /// Places the inputs re-read `generation` found, unless a later one placed its own or the
  /// observation ended (`nil`). Links no longer read leave the machine at once; links whose
  /// trigger ended (their object was released, and another may live at its address now) are
  /// linked again if read.
  mutating func place(_ generation: UInt64, found: Set<Input>) -> Plan? {
    guard !isEnded, generation > placed else { return nil }
    placed = generation
    var plan = Plan()
    for (input, trigger) in links where !found.contains(input) || !trigger.isActive {
      plan.detach.append(trigger)
      links[input] = nil
    }
    plan.link = found.filter { links[$0] == nil }
    return plan
  }

  /// Records the link placed on `input` (by ``place(_:found:)``'s plan).
  mutating func setLink(_ trigger: Trigger, for input: Input) {
    links[input] = trigger
  }

  /// Ends the observation: returns its links, to detach after unlocking; `nil` if it had ended
  /// already.
  mutating func end() -> [Trigger]? {
    guard !isEnded else { return nil }
    isEnded = true
    defer { links = [:] }
    return Array(links.values)
  }
}
