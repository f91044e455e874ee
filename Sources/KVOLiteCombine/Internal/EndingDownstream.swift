/// An operator's subscriber: held strongly until the operator ends (completes or is
/// cancelled), then only weakly.
///
/// Combine's operators keep their subscriber for good, and hand on what a misbehaving upstream
/// sends after the end. KVOLite lets go of the subscriber when the operator ends, so that a
/// subscriber that keeps its subscription is not kept alive in a cycle, but keeps a weak
/// reference to it: events that Combine forwards after the end still reach a subscriber that
/// is alive, as they do in Combine. A subscriber that is a struct is let go of for good (a weak
/// reference to its box does not outlive the end).
///
/// Not thread-safe: the owner guards it with its lock, and releases what ``end()`` gives up
/// after unlocking (a release may run a `deinit`).
struct EndingDownstream<Downstream> {
  private var strong: Downstream?
  private weak var retired: AnyObject?

  init(_ downstream: Downstream) {
    strong = downstream
  }

  /// The subscriber, until the operator ends.
  var live: Downstream? { strong }

  /// Whether the operator has not ended yet.
  var isLive: Bool { strong != nil }

  /// The subscriber, before the end or, after it, while someone else keeps it alive.
  var reachable: Downstream? { strong ?? (retired as? Downstream) }

  /// Ends: keeps only a weak reference, and returns the subscriber (nil if already ended), for
  /// the caller to complete or release after unlocking.
  mutating func end() -> Downstream? {
    guard let downstream = strong.take() else { return nil }
    retired = downstream as AnyObject
    return downstream
  }
}
