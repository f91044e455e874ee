import Foundation
import KVOLiteLocking

/// An observation of anything but one declared stored key: a chain such as
/// `recipient.postalAddress.street`, a string key path, a derived key, a collection operator.
///
/// It watches one or more *branches* (chains of keys, see ``DependencyExpansion``), placing a
/// link on every object along each branch, and re-wires them after a relationship changes:
/// links on replaced intermediates are removed, so they are neither notified nor retained. A
/// `nil` relationship cuts a branch; the rest is wired when an object appears.
///
/// One change gives one notification however many branches it hits: `old` is read at will-time
/// through the old objects and `new` at did-time through the new ones. An observation of a
/// to-many key itself (no operator, not derived) gets its insertions, removals and replacements
/// with indexes and elements; everything else gets settings of whole values.
class PathObservation: Observation, @unchecked Sendable {
  // @unchecked: `state` is behind `wiring`; the rest is immutable.
  let order: UInt64
  let branches: [[KeyStep]]
  /// Branches from this index on are wiring branches (see ``DependencyExpansion``): their last
  /// links re-wire the observation like links along a chain.
  let wiringFrom: Int
  /// Observes a to-many key itself, so it takes to-many changes as they are.
  let isExactToMany: Bool
  let options: ObservingOptions
  let wantsOld: Bool
  let wantsNew: Bool
  let wantsPrior: Bool
  /// Serializes re-wiring: the lock of `state`. (Not `Synchronization.Mutex`: the thread
  /// sanitizer cannot see its lock, which lives in the uninstrumented toolchain library.)
  private let wiring = Lock(rank: .links)
  /// The machine: the links, the re-wirings' generations, whether the observation ended.
  private var state: PathWiring

  init(branches: [[KeyStep]], wiringFrom: Int, isExactToMany: Bool, options: ObservingOptions) {
    order = nextRegistrationOrder()
    self.branches = branches
    self.wiringFrom = wiringFrom
    self.isExactToMany = isExactToMany
    self.options = options
    wantsOld = options.contains(.old)
    wantsNew = options.contains(.new)
    wantsPrior = options.contains(.prior)
    state = PathWiring(lengths: branches.map(\.count))
    super.init()
  }

  /// Whether the observation has not ended. (Deliveries need not ask: they come through its
  /// links, which end first.)
  var isActive: Bool { wiring.withLock { !state.isEnded } }

  /// The root object, if it is still alive.
  var rootObject: (any KeyValueObservable)? { fatalError("abstract") }

  /// Will-time, once per change event: reads the old value and sends the prior notification.
  /// For an exact to-many change, `keyOld` is the removed or replaced elements. Returns the old
  /// value, boxed, for `didChange`.
  func willChange(kind: KeyValueChangeKind, indexes: IndexSet?, keyOld: Any?) -> Any? {
    fatalError("abstract")
  }

  /// Did-time: re-wires if a relationship changed, reads the new value, notifies. For an exact
  /// to-many change, `keyNew` is the inserted or replacing elements.
  func didChange(
    isLeaf: Bool, kind: KeyValueChangeKind, indexes: IndexSet?, old: Any?, keyNew: Any?
  ) { fatalError("abstract") }

  /// Places links along every branch as it is now, replacing links on objects that left it.
  ///
  /// Everything that may run code outside KVOLite happens without any lock: the objects along
  /// the branches are read first (a derived to-one key's getter is user code), and so is where
  /// each key's storage lies (found by running the key's getter once per type, see
  /// ``StorageProbe``). Then the links are placed with `wiring` held, and the links they replace
  /// are detached after it is released. Concurrent re-wirings are ordered by a generation
  /// taken before the reads (see ``PathWiring``). (Each change of a relationship re-wires on
  /// its own thread, after the change.) Lock order: `wiring`, then property locks.
  ///
  /// - Throws: the first ``KeyValueError/notObservable(key:type:)`` met; the links before it
  ///   are in place, the rest are not.
  func rewire() throws(KeyValueError) {
    guard let generation = wiring.withLock({ state.beginRewire() }) else { return }
    let objects = objectsAlongBranches()
    let offsets = branches.indices.map { branch in
      branches[branch].indices.map {
        level -> Result<(offset: Int?, key: Int, context: RegistrarContext), KeyValueError>? in
        let step = branches[branch][level]
        return objects[branch][level].map { object in
          Result { () throws(KeyValueError) in
            let (offset, key) = try step.table.storage(ofKey: step.index, probing: object)
            return (offset, key, object.observationRegistrar.context(of: object))
          }
        }
      }
    }
    var replaced: [Trigger] = []
    defer {
      // Detached outside `wiring` (see above).
      for trigger in replaced { _ = trigger.detach() }
    }
    try wiring.withLock { () throws(KeyValueError) in
      guard state.beginPlacing(generation) else { return }
      for (branch, steps) in branches.enumerated() {
        for (level, step) in steps.enumerated() {
          try place(
            branch: branch, level: level, step: step, on: objects[branch][level],
            offset: offsets[branch][level], replacing: &replaced)
        }
      }
    }
  }

  /// The object each key of each branch applies to, read from the root now.
  private func objectsAlongBranches() -> [[(any KeyValueObservable)?]] {
    let root = rootObject
    return branches.map { steps in
      var object = root
      return steps.enumerated().map { level, step in
        defer { if level < steps.count - 1 { object = object.flatMap { step.entry.related?($0) } } }
        return object
      }
    }
  }

  /// Makes sure the link of `branch` at `level` sits on `object`, whose storage for the key
  /// is at `offset` (or the probe failed with its error). Called with `wiring` held; a link it
  /// takes off is added to `replaced`, for the caller to detach after unlocking.
  private func place(
    branch: Int, level: Int, step: KeyStep, on object: (any KeyValueObservable)?,
    offset: Result<(offset: Int?, key: Int, context: RegistrarContext), KeyValueError>?,
    replacing replaced: inout [Trigger]
  ) throws(KeyValueError) {
    let current = state.link(branch: branch, level: level)
    // An inactive link on an object at a reused address belongs to a released object.
    if let object, let current, current.object == ObjectIdentifier(object), current.trigger.isActive
    {
      return
    }
    if let old = state.setLink(nil, branch: branch, level: level) { replaced.append(old) }
    guard let object, let offset else { return }
    let (storage, key, context) = try offset.get()
    let isLeaf = level == branches[branch].count - 1 && branch < wiringFrom
    let link = makeLink(context: context, key: key, level: level, isLeaf: isLeaf)
    guard context.add(link) else { return }
    _ = state.setLink((link, ObjectIdentifier(object)), branch: branch, level: level)
    if step.entry.notifiesAutomatically, let storage {
      StorageState.markObserved(object, offset: storage, key: key)
    }
  }

  /// The trigger to place. A typed exact chain's leaf gets a ``LeafLink``, which a set
  /// delivers to without boxing.
  func makeLink(context: RegistrarContext, key: Int, level: Int, isLeaf: Bool) -> Trigger {
    PathLink(observation: self, context: context, key: key, level: level, isLeaf: isLeaf)
  }

  override func invalidate() {
    guard let links = wiring.withLock({ state.end() }) else { return }
    // Detached outside the lock: the links may hold the last references to this object.
    waitForDeliveries(holding: links.map { $0.detach() })
  }
}

/// The trigger a ``PathObservation`` places on one object of a branch.
final class PathLink: Trigger, @unchecked Sendable {
  /// Strong: the observation's own links are how it is reached. The cycle (observation → link
  /// → observation) is broken when the observation is invalidated, which its token's release
  /// or its root's release always does.
  let observation: PathObservation
  /// The position of the link's key in its branch.
  let level: Int
  /// Whether the key is the last of its branch (so a change of it re-wires nothing).
  let isLeaf: Bool

  init(observation: PathObservation, context: RegistrarContext, key: Int, level: Int, isLeaf: Bool)
  {
    self.observation = observation
    self.level = level
    self.isLeaf = isLeaf
    super.init(
      order: observation.order, context: context, keyIndex: key, isTyped: false,
      options: observation.options.intersection(.takesChangesInFlight))
  }

  override var path: (observation: PathObservation, level: Int, isLeaf: Bool)? {
    (observation, level, isLeaf)
  }
}
