import Foundation
import KVOLite

/// Rebuilds an array from the changes an observer of a to-many path receives (the relationship
/// itself, or a key of every element), and checks each change against what it rebuilt so far:
/// indexes in range, old values equal to the values at those indexes, one value per index.
///
/// Thread-safe: changes may be applied from any thread; they are applied in the order the calls
/// take the lock. `Element` is what each value of the change is cast to.
public final class ToManyReplay<Element: Equatable>: @unchecked Sendable {
  // @unchecked: the state is only touched with the lock held.
  private let state: Locked<State>

  private struct State {
    var elements: [Element]
    var changes = 0
    var priors = 0
    var problems: [String] = []

    mutating func problem(_ text: String) {
      // The first few tell the story.
      if problems.count < 5 { problems.append(text) }
    }
  }

  /// A replay that starts from `elements`.
  public init(_ elements: [Element] = []) {
    state = Locked(State(elements: elements))
  }

  /// The array rebuilt so far.
  public var elements: [Element] { state.withLock { $0.elements } }
  /// How many post-change notifications were applied.
  public var changes: Int { state.withLock { $0.changes } }
  /// How many prior notifications were seen (they change nothing).
  public var priors: Int { state.withLock { $0.priors } }
  /// The first inconsistencies found, if any.
  public var problems: [String] { state.withLock { $0.problems } }

  /// Casts a change's value (an array, type-erased) to elements; `nil` if it is absent or not an
  /// array of `Element`s.
  public static func cast(_ value: Any??) -> [Element]? {
    guard let value = value ?? nil, let array = value as? [Any] else { return nil }
    var elements: [Element] = []
    for item in array {
      guard let element = item as? Element else { return nil }
      elements.append(element)
    }
    return elements
  }

  /// Applies one change.
  public func apply(_ change: KeyValueChange<Any?>) {
    let old = Self.cast(change.oldValue)
    let new = Self.cast(change.newValue)
    state.withLock { state in
      guard !change.isPrior else {
        state.priors += 1
        return
      }
      state.changes += 1
      let indexes = change.indexes.map(Array.init) ?? []
      switch change.kind {
      case .setting:
        guard let new else { return state.problem("setting without new values") }
        state.elements = new
      case .insertion:
        guard let new, new.count == indexes.count else {
          return state.problem("insertion \(indexes) with new values \(String(describing: new))")
        }
        for (index, element) in zip(indexes, new) {
          guard index <= state.elements.count else {
            return state.problem("insertion at \(index) of \(state.elements.count) elements")
          }
          state.elements.insert(element, at: index)
        }
      case .removal, .replacement:
        guard indexes.allSatisfy({ $0 < state.elements.count }) else {
          return state.problem("\(change.kind) \(indexes) of \(state.elements.count) elements")
        }
        let current = indexes.map { state.elements[$0] }
        if let old, old != current {
          state.problem("\(change.kind) \(indexes): old \(old), but the replay has \(current)")
        }
        if change.kind == .removal {
          for index in indexes.reversed() { state.elements.remove(at: index) }
        } else {
          guard let new, new.count == indexes.count else {
            return state.problem("replacement \(indexes) with new \(String(describing: new))")
          }
          for (index, element) in zip(indexes, new) { state.elements[index] = element }
        }
      }
    }
  }
}
