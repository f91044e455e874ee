import Synchronization

/// An observation of a key path that is not one declared key: a chain such as
/// `recipient.postalAddress.street`, or a string key path.
///
/// It places a ``PathLink`` on every object along the chain (the root for the first key, the
/// related object for the next, …) and re-wires the links after a relationship changes: links
/// on replaced intermediates are removed, so they are neither notified nor retained. A `nil`
/// relationship ends the chain; the value is then `nil`, and the rest is wired when an object
/// appears.
///
/// One change gives one notification: `old` is read through the old chain at will-time and
/// `new` through the new chain at did-time.
class PathObservation: Observation, @unchecked Sendable {
  // @unchecked: `links` is behind `wiring`, the flag is atomic, the rest is immutable.
  let order: UInt64
  let steps: [KeyStep]
  let options: ObservingOptions
  let wantsOld: Bool
  let wantsNew: Bool
  let wantsPrior: Bool
  let active = Atomic<Bool>(true)
  /// Serializes re-wiring. (Not `Synchronization.Mutex`: the thread sanitizer cannot see its
  /// lock, which lives in the uninstrumented toolchain library.)
  private let wiring = Lock()
  /// One link per step, with the identity of the object it sits on; `nil` where the chain is
  /// cut by a `nil` relationship. Guarded by `wiring`. (The identity is kept here rather than
  /// read from the link's registrar, which may already be gone.)
  private var links: [(trigger: Trigger, object: ObjectIdentifier)?]

  init(steps: [KeyStep], options: ObservingOptions) {
    order = registrationCounter.add(1, ordering: .relaxed).newValue
    self.steps = steps
    self.options = options
    wantsOld = options.contains(.old)
    wantsNew = options.contains(.new)
    wantsPrior = options.contains(.prior)
    links = Array(repeating: nil, count: steps.count)
    super.init()
  }

  var isActive: Bool { active.load(ordering: .acquiring) }

  /// The root object, if it is still alive.
  var rootObject: (any KeyValueObservable)? { fatalError("abstract") }

  /// Called at will-time, for the first link of this observation that a change hits: reads the
  /// old value and sends the prior notification. Returns the old value, boxed.
  func willChange(kind: KeyValueChangeKind) -> Any? { fatalError("abstract") }

  /// Called at did-time: re-wires the chain below `level`, reads the new value, notifies.
  func didChange(level: Int, kind: KeyValueChangeKind, old: Any?) { fatalError("abstract") }

  /// Places links along the chain as it is now, replacing links on objects that left it.
  ///
  /// Reads happen while `wiring` is held, so that concurrent re-wirings apply in order and
  /// the last one wires the chain as it is after both changes. Lock order: `wiring`, then
  /// registrar locks (a registrar never calls out while holding its lock).
  ///
  /// - Throws: the first ``KeyValueError/notObservable(key:type:)`` met along the chain; the
  ///   links before it are in place, the rest are not.
  func rewire() throws(KeyValueError) {
    try wiring.withLock { () throws(KeyValueError) in
      guard isActive else { return }
      var object = rootObject
      for level in steps.indices {
        let current = links[level]
        if let object, let current, current.object == ObjectIdentifier(object),
          current.trigger.isActive
        {
          // Still wired to the right object. (An inactive link on an object at a reused address
          // belongs to a released object, whose registrar ended it.)
        } else {
          if let current {
            links[level] = nil
            current.trigger.cancel()
          }
          if let object {
            let step = steps[level]
            try object.observationRegistrar.stamp(
              object, key: step.index, entry: step.entry, typeName: step.table.typeName)
            let link = makeLink(level: level)
            if object.observationRegistrar.add(link, key: steps[level].index) {
              links[level] = (link, ObjectIdentifier(object))
            }
          }
        }
        if level < steps.count - 1 {
          object = object.flatMap { steps[level].entry.related?($0) }
        }
      }
    }
  }

  /// The trigger to place for `level`. A typed chain's leaf gets a ``LeafLink``, which the fast
  /// path of ``Observed`` delivers without boxing.
  func makeLink(level: Int) -> Trigger {
    PathLink(observation: self, level: level, order: order)
  }

  override func invalidate() {
    guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
    let removed = wiring.withLock {
      defer { links = Array(repeating: nil, count: links.count) }
      return links
    }
    // Remove outside the lock: the removed links may be the last references to this object.
    for case let link? in removed { link.trigger.cancel() }
  }
}

/// The trigger a ``PathObservation`` places on one object of its chain.
final class PathLink: Trigger, @unchecked Sendable {
  /// Strong: the observation's own links are how it is reached. The cycle (observation → link
  /// → observation) is broken when the observation is invalidated, which its token's release
  /// or its root's release always does.
  let observation: PathObservation
  /// The position of the link's key in the observation's chain.
  let level: Int

  init(observation: PathObservation, level: Int, order: UInt64) {
    self.observation = observation
    self.level = level
    super.init(order: order, isTyped: false, options: [])
  }

  override var path: (observation: PathObservation, level: Int)? { (observation, level) }
}

/// The link a typed chain places on its last object, when the chain's value type is the last
/// key's own type: the setter delivers to it like to a direct observer, with the value it
/// stored (which is what reading through the chain would give).
final class LeafLink<Value>: ValueTrigger<Value>, @unchecked Sendable {
  /// Strong, as in ``PathLink``.
  let observation: ValuePathObservation<Value>
  let level: Int

  init(observation: ValuePathObservation<Value>, level: Int) {
    self.observation = observation
    self.level = level
    super.init(
      order: observation.order, isTyped: true,
      options: observation.options)
  }

  override var path: (observation: PathObservation, level: Int)? { (observation, level) }

  override func deliver(_ object: AnyObject, _ change: KeyValueChange<Value>) {
    observation.deliverLeaf(change)
  }
}

/// A ``PathObservation`` whose value type is `Value`.
class ValuePathObservation<Value>: PathObservation, @unchecked Sendable {
  /// Whether the last key's stored type is `Value`, so that its setter can deliver directly.
  private let leafIsValue: Bool

  override init(steps: [KeyStep], options: ObservingOptions) {
    leafIsValue = steps.last!.entry.storedType == Value.self
    super.init(steps: steps, options: options)
  }

  override func makeLink(level: Int) -> Trigger {
    guard leafIsValue, level == steps.count - 1 else { return super.makeLink(level: level) }
    return LeafLink(observation: self, level: level)
  }

  /// Delivers a change of the last key, already in the observation's terms.
  func deliverLeaf(_ change: KeyValueChange<Value>) {}
}

/// A ``PathObservation`` with a typed root, value and handler.
final class TypedPathObservation<Root: KeyValueObservable, Value>: ValuePathObservation<Value>,
  @unchecked Sendable
{
  private weak var root: Root?
  private let read: (Root) -> Value
  private let handler: (Root, KeyValueChange<Value>) -> Void

  init(
    root: Root, steps: [KeyStep], options: ObservingOptions, read: @escaping (Root) -> Value,
    handler: @escaping (Root, KeyValueChange<Value>) -> Void
  ) {
    self.root = root
    self.read = read
    self.handler = handler
    super.init(steps: steps, options: options)
  }

  override var rootObject: (any KeyValueObservable)? { root }

  override func deliverLeaf(_ change: KeyValueChange<Value>) {
    guard isActive, let root else { return }
    handler(root, change)
  }

  /// Sends the `.initial` notification.
  func sendInitial() {
    guard isActive, let root else { return }
    handler(root, KeyValueChange(kind: .setting, newValue: wantsNew ? read(root) : nil))
  }

  override func willChange(kind: KeyValueChangeKind) -> Any? {
    guard isActive, let root else { return nil }
    let old: Value? = wantsOld ? read(root) : nil
    if wantsPrior {
      handler(root, KeyValueChange(kind: kind, oldValue: old, isPrior: true))
    }
    return old.map { $0 as Any }
  }

  override func didChange(level: Int, kind: KeyValueChangeKind, old: Any?) {
    guard isActive, let root else { return }
    // A relationship replaced by an object whose keys cannot be observed leaves the chain cut
    // there; the value is still read through the whole path.
    if level < steps.count - 1 { try? rewire() }
    let new: Value? = wantsNew ? read(root) : nil
    handler(root, KeyValueChange(kind: kind, oldValue: old.map { $0 as! Value }, newValue: new))
  }
}
