import KVOLite

/// Follows the settings an observer of a whole value receives (a derived key, a collection
/// operator): each old value must be the new value delivered before it, and the last new value
/// is the value the observer believes.
///
/// Thread-safe: changes may be applied from any thread, in the order the calls take the lock.
public final class ValueTrack<Value: Equatable>: @unchecked Sendable {
  // @unchecked: the state is only touched with the lock held.
  private let state = Locked(State())

  private struct State {
    var last: Value?
    var hasLast = false
    var changes = 0
    var priors = 0
    var problems: [String] = []

    mutating func problem(_ text: String) {
      // The first few tell the story.
      if problems.count < 5 { problems.append(text) }
    }
  }

  /// A track with no value yet.
  public init() {}

  /// The last new value delivered (`nil` before any).
  public var last: Value? { state.withLock { $0.last } }
  /// How many post-change notifications were applied.
  public var changes: Int { state.withLock { $0.changes } }
  /// How many prior notifications were seen.
  public var priors: Int { state.withLock { $0.priors } }
  /// The first inconsistencies found, if any.
  public var problems: [String] { state.withLock { $0.problems } }

  /// Applies one change; its old value, when present, must be the last new one.
  public func apply(_ change: KeyValueChange<Value>) {
    state.withLock { state in
      if let old = change.oldValue, state.hasLast, old != state.last {
        state.problem(
          "\(change.isPrior ? "prior " : "")old \(old) after \(String(describing: state.last))")
      }
      guard !change.isPrior else {
        state.priors += 1
        return
      }
      state.changes += 1
      state.last = change.newValue
      state.hasLast = true
    }
  }
}

extension ValueTrack where Value == String {
  /// Applies a type-erased change, its values described (`"nil"` for `nil`).
  public func apply(erased change: KeyValueChange<Any?>) {
    func text(_ value: Any??) -> String? { value.map { $0.map { "\($0)" } ?? "nil" } }
    apply(
      KeyValueChange(
        kind: change.kind, oldValue: text(change.oldValue), newValue: text(change.newValue),
        indexes: change.indexes, isPrior: change.isPrior))
  }
}
