import KVOLiteLocking

/// What an observation delivers, and when.
///
/// The options mirror Foundation's `NSKeyValueObservingOptions`. The default is none: one
/// notification after each change, carrying only its ``KeyValueChange/kind``.
///
/// - ``new``: post-change notifications carry the value after the change.
/// - ``old``: notifications carry the value before the change (read at will-time).
/// - ``initial``: one notification is sent inside `observe`, before it returns, with kind
///   ``KeyValueChangeKind/setting``, the current value as `newValue` if ``new`` is also given,
///   and never an `oldValue`.
/// - ``prior``: an extra notification before every change, with ``KeyValueChange/isPrior`` set,
///   `oldValue` if ``old`` is given, and never a `newValue`.
///
/// ## Old values under concurrent sets
///
/// The old value is the key's value at will-time, as in Foundation. Without ``prior`` (and
/// without path or derived observers of the key, which read their old values at will-time
/// too), reading it and storing the new value happen under the property's lock in one step, so
/// each set's old value is exactly the value it replaced, however many threads set the key.
/// With them, notifications must be delivered between the two, with no lock held: two sets of
/// one key racing on two threads may then both read the same old value (and report it, in the
/// prior and in the post notification), the later store winning. Every set still delivers
/// exactly one prior and one post notification to each observer. Serialize sets of a key whose
/// old values must chain exactly.
public struct ObservingOptions: OptionSet, Sendable, Hashable {
  /// The options as bits.
  public let rawValue: UInt8

  /// The options whose bits are `rawValue`.
  @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Post-change notifications carry the new value.
  public static let new = ObservingOptions(rawValue: 1 << 0)
  /// Notifications carry the value from before the change.
  public static let old = ObservingOptions(rawValue: 1 << 1)
  /// One notification is sent immediately, before `observe` returns.
  public static let initial = ObservingOptions(rawValue: 1 << 2)
  /// An extra notification is sent before each change.
  public static let prior = ObservingOptions(rawValue: 1 << 3)

  /// Internal: the observation also gets a change that was in flight when it was registered
  /// (past its will-phase, not yet stored), so that a value read right after registering is
  /// never left stale. Observations that follow elements (``SerialObservation``) ask it for
  /// what they place while changes go on; everything else keeps Foundation's rule (an
  /// observer added during a change does not get it).
  static let takesChangesInFlight = ObservingOptions(rawValue: 1 << 7)
}

extension ObservingOptions: CustomStringConvertible {
  /// The set options by name, e.g. `[old, new]`.
  public var description: String {
    let names: [(ObservingOptions, String)] = [
      (.initial, "initial"), (.old, "old"), (.new, "new"), (.prior, "prior"),
    ]
    return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
  }
}
