import Foundation
import KVOLiteLocking

/// A ``LinksObservation`` with a typed root, value and handler: the observation's storage. It
/// holds one lock (the lock order's ``LockRank/links``: placing a link takes its object's
/// property lock inside it), one machine (``LinksStateMachine``, whose end is the
/// observation's), and one gate for its handler's calls (``InFlightGate``: ``invalidate()``
/// waits for the calls in progress, also those through links a reading has dropped).
///
/// It refers to its root weakly: the root is not kept alive, and a delivery gets it only while
/// it is not being released.
final class TypedLinksObservation<Root: KeyValueObservable, Value>: LinksObservation,
  @unchecked Sendable
{
  // @unchecked: `machine` is behind `lock`; the rest is immutable but for the weak root, which
  // the runtime reads atomically.
  private weak var root: Root?
  private let plan: LinksPlan
  private let read: (Root) -> Value
  /// Converts the elements of an exact to-many change (boxed `[Element]`) to `Value`.
  private let elements: (Any) -> Value
  private let handler: (Root, KeyValueChange<Value>) -> Void
  private let wantsOld: Bool
  private let wantsNew: Bool
  private let wantsPrior: Bool
  /// Whether this is one branch whose last key is stored as `Value`, so that the key's setter
  /// can deliver its value directly (a ``LeafLink``).
  private let leafIsValue: Bool
  private let lock = Lock(rank: .links)
  /// Guarded by `lock`.
  private var machine = LinksStateMachine()
  private let calls = InFlightGate()

  init(
    root: Root, plan: LinksPlan, options: ObservingOptions, read: @escaping (Root) -> Value,
    elements: @escaping (Any) -> Value, handler: @escaping (Root, KeyValueChange<Value>) -> Void
  ) {
    self.root = root
    self.plan = plan
    self.read = read
    self.elements = elements
    self.handler = handler
    wantsOld = options.contains(.old)
    wantsNew = options.contains(.new)
    wantsPrior = options.contains(.prior)
    leafIsValue =
      plan.branches.count == 1 && plan.readers.isEmpty && !plan.readsValues
      && plan.branches[0].last!.entry.storedType == Value.self
    super.init(options: options)
  }

  /// Places the first links. A failure is thrown with nothing left in place (the caller ends
  /// the observation).
  ///
  /// - Throws: the first ``KeyValueError/notObservable(key:type:)`` met, or the plan's error
  ///   when nothing is linked (a getter that read no ``Observed`` key, and no declared input).
  func start() throws(KeyValueError) {
    guard let root else { return }
    var generation: UInt64 = 0
    try relink(root, throwing: true, generation: &generation)
    if plan.branches.isEmpty, let unobservable = plan.unobservable,
      lock.withLock({ machine.linkCount }) == 0
    {
      throw unobservable
    }
  }

  /// Sends the `.initial` notification.
  func sendInitial() {
    guard let root, calls.enter() else { return }
    defer { calls.leave() }
    guard lock.withLock({ !machine.isEnded }) else { return }
    let change = KeyValueChange(kind: .setting, newValue: wantsNew ? read(root) : nil)
    DeliveryScope.run { handler(root, change) }
  }

  /// Delivers a change of the last key, already in the observation's terms.
  func deliverLeaf(_ change: KeyValueChange<Value>) {
    guard let root, calls.enter() else { return }
    defer { calls.leave() }
    handler(root, change)
  }

  override func willChange(kind: KeyValueChangeKind, indexes: IndexSet?, keyOld: Any?) -> Any? {
    guard let root, calls.enter() else { return nil }
    defer { calls.leave() }
    let exact = plan.isExactToMany && kind != .setting
    let old: Value? = !wantsOld ? nil : exact ? keyOld.map(elements) : read(root)
    if wantsPrior {
      handler(
        root,
        KeyValueChange(
          kind: exact ? kind : .setting, oldValue: old, indexes: exact ? indexes : nil,
          isPrior: true))
    }
    return old.map { $0 as Any }
  }

  override func didChange(
    rereads: Bool, kind: KeyValueChangeKind, indexes: IndexSet?, old: Any?, keyNew: Any?
  ) {
    guard let root, calls.enter() else { return }
    defer { calls.leave() }
    // A relationship replaced by an object whose keys cannot be observed leaves the branch cut
    // there; the value is still read through the whole path.
    // (The generation apart from the value: a tuple of a generic type would cost a lookup of
    // its metadata on every delivery.)
    var generation: UInt64 = 0
    var found = rereads ? (try? relink(root, generation: &generation)) ?? nil : nil
    // A reading begun since this one read the value: another change, whose own delivery may
    // come first; read again, so that this one does not carry an older value than that one.
    if found != nil, lock.withLock({ machine.begun }) > generation { found = nil }
    let exact = plan.isExactToMany && kind != .setting
    let new: Value? = !wantsNew ? nil : exact ? keyNew.map(elements) : found ?? read(root)
    handler(
      root,
      KeyValueChange(
        kind: exact ? kind : .setting, oldValue: old.map { $0 as! Value }, newValue: new,
        indexes: exact ? indexes : nil))
  }

  /// Reads the links again if a derived to-one decides where its branches lead (its value may
  /// have changed with elements of a relationship, which no link here hears of).
  func relinkIfWired() {
    guard plan.wiringFrom < plan.branches.count, let root else { return }
    var generation: UInt64 = 0
    _ = try? relink(root, generation: &generation)
  }

  /// Reads what the value depends on and places the links it wants, again until a reading
  /// places with no set racing one of its new links; returns the value when the reading read it
  /// (the plan's ``LinksReader/value``), and sets `readAt` to the reading's generation. With
  /// `throwing`, the first key that cannot be observed is thrown, before anything is placed.
  @discardableResult
  func relink(
    _ root: Root, throwing: Bool = false, generation readAt: inout UInt64
  ) throws(KeyValueError) -> Value? {
    while true {
      guard case .read(let generation) = lock.withLock({ machine.beginReading() }) else {
        return nil
      }
      let (reading, value) = self.reading(root)
      if throwing, let failure = reading.failure { throw failure }
      var detached: [Trigger] = []
      var raced = false
      lock.withLock {
        guard case .place(let link, let detach) = machine.place(generation, wanted: reading.wanted)
        else { return }
        detached = detach
        for index in link where place(reading.wanted[index], reading.targets[index]) {
          raced = true
        }
      }
      // After unlocking: the links may hold the last references to registrar contexts, and the
      // reading to the objects it read.
      for trigger in detached { _ = trigger.detach() }
      withExtendedLifetime(reading) {}
      if !raced {
        readAt = generation
        return value
      }
    }
  }

  /// Reads the links the plan wants now: the objects along its branches, then its readers'
  /// getters, with no lock held.
  private func reading(_ root: Root) -> (LinksReading, Value?) {
    var reading = LinksReading(root: root, everyLinkRereads: !plan.readers.isEmpty)
    for (index, branch) in plan.branches.enumerated() {
      reading.want(branch: branch, isValueBranch: index < plan.wiringFrom, from: root)
    }
    var value: Value?
    for reader in plan.readers {
      switch reader {
      case .value:
        let (read, reports) = StorageProbe.value { self.read(root) }
        value = read
        reading.want(found: reports)
      case .derived(let prefix, let entry):
        var object: (any KeyValueObservable)? = root
        for step in prefix { object = object.flatMap { step.entry.related?($0) } }
        guard let object else { continue }
        reading.want(found: StorageProbe.value { entry.value(object) }.reports)
      }
    }
    return (reading, value)
  }

  /// Places the link `wanted` on `target`, with `lock` held (then its object's property lock).
  /// Returns whether a set raced it: the change counter the reading saw has moved.
  private func place(_ wanted: LinksStateMachine.Wanted, _ target: LinksReading.Target) -> Bool {
    let link: Trigger =
      leafIsValue && !wanted.rereads
      ? LeafLink(
        observation: self, context: target.context, key: wanted.key.key, isRoot: wanted.isRoot)
      : Link(
        observation: self, context: target.context, key: wanted.key.key,
        rereads: wanted.rereads, isRoot: wanted.isRoot)
    guard target.context.add(link) else { return false }
    machine.linked(link, for: wanted)
    guard let offset = target.offset else { return false }
    return StorageState.markObserved(
      target.object, offset: offset, key: wanted.key.key, notifies: target.notifies,
      counter: target.counter, waitsForMutation: false)
  }

  override func invalidate() {
    if case .detach(let links) = lock.withLock({ machine.end() }) {
      // Detached outside the lock: the links may hold the last references to this object.
      waitForDeliveries(holding: links.map { $0.detach() })
    }
    // Then the handler's calls, also those through links dropped by readings (only closed when
    // called from inside a delivery, as every token's invalidation).
    calls.closeAndWait()
  }
}
