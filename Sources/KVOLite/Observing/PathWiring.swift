/// The state machine of a ``PathObservation``'s links: which link sits on which object of each
/// branch, which re-wiring placed them, and whether the observation ended. Plain values; the
/// observation runs each transition with its `wiring` lock held and detaches the links a
/// transition hands back after unlocking.
///
/// ```
///              begin a re-wiring (generation g = ++begun)
///   wired  ----------------------------------------------> wired, g reading the branches
///     ^                                                            |
///     |   place, if g > placed (placed = g): links set, replaced   |
///     +------------------- ones handed back to detach <------------+
///                     (if a later generation placed first: nothing)
///   wired --end--> ended (links handed back; no re-wiring begins or places after)
/// ```
///
/// Concurrent re-wirings are ordered by their generation, taken before they read the objects
/// along the branches: one places its links only if no later generation has placed its own. A
/// later generation read the objects later, after every change that came before it, so a stale
/// read never overwrites a fresher one, and the re-wiring of the last change always leaves the
/// branches wired as they are after it.
struct PathWiring {
  /// A link, and the identity of the object it sits on (kept here rather than read from the
  /// link's registrar, which may already be gone).
  typealias Link = (trigger: Trigger, object: ObjectIdentifier)

  private(set) var isEnded = false
  /// Re-wirings begun: the last one's generation.
  private(set) var begun: UInt64 = 0
  /// The generation of the re-wiring that placed the links.
  private(set) var placed: UInt64 = 0
  /// One link per key of each branch; `nil` where a branch is cut by a `nil` relationship.
  private var links: [[Link?]]

  /// No links yet, on branches of `lengths` keys each.
  init(lengths: [Int]) {
    links = lengths.map { Array(repeating: nil, count: $0) }
  }

  /// Begins a re-wiring: its generation, or `nil` once ended.
  mutating func beginRewire() -> UInt64? {
    guard !isEnded else { return nil }
    begun += 1
    return begun
  }

  /// Whether re-wiring `generation` places its links: no later one has placed its own, and the
  /// observation has not ended. If so, it is now the one that placed them.
  mutating func beginPlacing(_ generation: UInt64) -> Bool {
    guard !isEnded, generation > placed else { return false }
    placed = generation
    return true
  }

  /// The link of `branch` at `level`.
  func link(branch: Int, level: Int) -> Link? {
    links[branch][level]
  }

  /// Sets the link of `branch` at `level`; returns the trigger it replaces, to detach after
  /// unlocking.
  mutating func setLink(_ link: Link?, branch: Int, level: Int) -> Trigger? {
    defer { links[branch][level] = link }
    return links[branch][level]?.trigger
  }

  /// Ends the observation: returns its links, to detach after unlocking; `nil` if it had ended
  /// already.
  mutating func end() -> [Trigger]? {
    guard !isEnded else { return nil }
    isEnded = true
    defer { links = links.map { Array(repeating: nil, count: $0.count) } }
    return links.joined().compactMap { $0?.trigger }
  }
}
