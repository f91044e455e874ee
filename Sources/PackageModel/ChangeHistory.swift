import Foundation
import KVOLite

/// Undo and redo for an observable object graph, recorded from the change records KVOLite
/// delivers.
///
/// The history observes every declared key of every object reachable from its root through
/// to-one relationships (re-wiring as relationships change), and records each change at the
/// object and key where it happened: a setting with its old and new values, a to-many insertion,
/// removal or replacement with its indexes and elements. Undoing applies the inverse changes, in
/// reverse order, through key-value coding, so observers see them like any other change;
/// redoing applies them again.
///
/// Changes made inside ``group(_:)`` form one step; a change made outside any group is a step by
/// itself. A new step clears the redo steps. At most ``limit`` steps are kept: when a new step
/// would pass it, the oldest is forgotten (so a long session does not grow without end).
///
/// Not thread-safe: make changes and call it from one thread (like a command loop). It retains
/// the objects its steps refer to, so that an undo can restore them.
public final class ChangeHistory {
  private let root: any KeyValueObservable
  private var watched: [(object: any KeyValueObservable, tokens: [ObservationToken])] = []
  /// The steps that can be undone are `undoSteps[forgotten...]`; those before were dropped for
  /// the limit (emptied at once, removed from the array in batches, so a push stays O(1)).
  private var undoSteps: [[RecordedChange]] = []
  private var forgotten = 0
  private var redoSteps: [[RecordedChange]] = []
  private var openGroup: [RecordedChange]?
  private var groupDepth = 0
  private var isReplaying = false

  /// The number of steps kept when none is given: 1000.
  public static let defaultLimit = 1000

  /// How many steps can be undone at most.
  public let limit: Int

  /// Starts recording the changes of `root`'s graph, keeping at most `limit` steps (at least
  /// 1; by default ``defaultLimit``).
  public init(root: any KeyValueObservable, limit: Int = ChangeHistory.defaultLimit) {
    guard limit >= 1 else {
      fatalError("ChangeHistory: the limit must be at least 1, not \(limit)")
    }
    self.root = root
    self.limit = limit
    rewire()
  }

  /// A counter that moves with every recorded change, undo and redo: compare it with a value
  /// saved earlier to know whether the graph changed since (for "unsaved changes").
  public private(set) var version = 0

  /// Whether there is a step to undo.
  public var canUndo: Bool { undoSteps.count > forgotten }
  /// Whether there is a step to redo.
  public var canRedo: Bool { !redoSteps.isEmpty }

  /// Runs `body`; everything it changes is one step (nothing, if it changes nothing). Groups
  /// nest: the outermost one makes the step.
  public func group<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
    -> Result
  {
    groupDepth += 1
    if groupDepth == 1 { openGroup = [] }
    defer {
      groupDepth -= 1
      if groupDepth == 0, let changes = openGroup {
        openGroup = nil
        push(changes)
      }
    }
    return try body()
  }

  /// Steps back: undoes the last step. Returns `false` if there was none.
  @discardableResult
  public func undo() -> Bool {
    guard canUndo, let step = undoSteps.popLast() else { return false }
    replay { for change in step.reversed() { change.revert() } }
    redoSteps.append(step)
    version += 1
    return true
  }

  /// Steps forward: redoes the last undone step. Returns `false` if there was none.
  @discardableResult
  public func redo() -> Bool {
    guard let step = redoSteps.popLast() else { return false }
    replay { for change in step { change.apply() } }
    undoSteps.append(step)
    version += 1
    return true
  }

  /// Forgets every step (for example after loading a file that should not be undone),
  /// including what the enclosing ``group(_:)``, if any, recorded so far.
  public func clear() {
    undoSteps = []
    forgotten = 0
    redoSteps = []
    if openGroup != nil { openGroup = [] }
  }

  private func replay(_ body: () -> Void) {
    isReplaying = true
    defer { isReplaying = false }
    body()
  }

  private func push(_ changes: [RecordedChange]) {
    guard !changes.isEmpty else { return }
    undoSteps.append(changes)
    if undoSteps.count - forgotten > limit {
      undoSteps[forgotten] = []
      forgotten += 1
      if forgotten >= limit {
        undoSteps.removeFirst(forgotten)
        forgotten = 0
      }
    }
    redoSteps = []
  }

  private func record(_ change: RecordedChange) {
    guard !isReplaying else { return }
    version += 1
    if openGroup != nil {
      openGroup!.append(change)
    } else {
      push([change])
    }
  }

  // MARK: - Watching the graph

  /// Observes every key of every object reachable from the root, once each.
  private func rewire() {
    let previous = watched
    watched = []
    var seen = Set<ObjectIdentifier>()
    watch(root, seen: &seen)
    for token in previous.flatMap(\.tokens) { token.invalidate() }
  }

  private func watch(_ object: any KeyValueObservable, seen: inout Set<ObjectIdentifier>) {
    guard seen.insert(ObjectIdentifier(object)).inserted else { return }
    var tokens: [ObservationToken] = []
    for key in keys(of: object) where key.role != .derived {
      let token = try? object.observe(key.name, options: [.old, .new]) {
        [weak self, weak object] change in
        guard let self, let object else { return }
        self.record(RecordedChange(object: object, key: key.name, change: change))
        if key.role == .toOne { self.rewire() }
      }
      if let token { tokens.append(token) }
      if key.role == .toOne,
        let related = (try? object.value(forKeyPath: key.name)) as? any KeyValueObservable
      {
        watch(related, seen: &seen)
      }
    }
    watched.append((object, tokens))
  }

  private func keys<Root: KeyValueObservable>(of object: Root) -> [(name: String, role: KeyRole)] {
    Root.allObservableKeys.keys.map { ($0.name, $0.role) }
  }
}

/// One change, as recorded: where it happened and what it did.
private struct RecordedChange {
  let object: any KeyValueObservable
  let key: String
  let change: KeyValueChange<Any?>

  /// Applies the inverse change.
  func revert() {
    let elements = { (value: Any??) in (value.flatMap { $0 } as? [Any]) ?? [] }
    let indexes = change.indexes ?? []
    switch change.kind {
    case .setting: try? object.setValue(change.oldValue ?? nil, forKeyPath: key)
    case .insertion: try? object.mutateToMany(.removal, forKeyPath: key, at: indexes)
    case .removal:
      try? object.mutateToMany(
        .insertion, forKeyPath: key, at: indexes, elements: elements(change.oldValue))
    case .replacement:
      try? object.mutateToMany(
        .replacement, forKeyPath: key, at: indexes, elements: elements(change.oldValue))
    }
  }

  /// Applies the change again.
  func apply() {
    let elements = { (value: Any??) in (value.flatMap { $0 } as? [Any]) ?? [] }
    let indexes = change.indexes ?? []
    switch change.kind {
    case .setting: try? object.setValue(change.newValue ?? nil, forKeyPath: key)
    case .insertion:
      try? object.mutateToMany(
        .insertion, forKeyPath: key, at: indexes, elements: elements(change.newValue))
    case .removal: try? object.mutateToMany(.removal, forKeyPath: key, at: indexes)
    case .replacement:
      try? object.mutateToMany(
        .replacement, forKeyPath: key, at: indexes, elements: elements(change.newValue))
    }
  }
}
