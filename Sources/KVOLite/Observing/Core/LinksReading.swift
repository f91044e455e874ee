import KVOLiteLocking

/// One reading of a ``LinksObservation``: the links it wants, from each source — the objects
/// along its branches (a chain's relationships and last key, a derived key's declared inputs)
/// and the ``Observed`` keys its readers' getters read (inputs found by reading) — one per
/// object and key, in the order they were met, with what placing each takes.
///
/// Made with no lock held (the getters are user code; so is finding a key's storage, which
/// runs a getter once per type, see ``StorageProbe``); the objects it met are kept alive until
/// it is released, after the observation's lock.
struct LinksReading {
  /// What placing a wanted link takes.
  struct Target {
    /// The object, kept alive while the reading is.
    let object: any KeyValueObservable
    let context: RegistrarContext
    /// Its key's ``Observed`` storage, if it has one.
    let offset: Int?
    /// Whether the key notifies its sets (its storage is marked observed when linked).
    let notifies: Bool
    /// The change counter a getter read the property with (see ``StorageState``); `nil` for a
    /// link along a branch, whose value is read after its links are placed.
    var counter: UInt32?
  }

  /// The links wanted, one per object and key.
  private(set) var wanted: [LinksStateMachine.Wanted] = []
  /// What placing each takes.
  private(set) var targets: [Target] = []
  /// The first error met: a key whose storage cannot be observed.
  private(set) var failure: KeyValueError?
  /// Where each wanted link is in `wanted`, once there are more than a few (a few are
  /// searched: most readings want a handful of links, and a dictionary costs more than that).
  private var positions: [LinksStateMachine.Key: Int] = [:]
  private static let searchedLinks = 8
  private let root: AnyObject
  /// Whether every link reads again (the observation finds inputs, which may change with any
  /// change).
  private let everyLinkRereads: Bool

  init(root: AnyObject, everyLinkRereads: Bool) {
    self.root = root
    self.everyLinkRereads = everyLinkRereads
  }

  /// Wants the link of `branch`'s keys on the objects along it from `root`: a relationship's
  /// link reads again, the last key's (of a value branch, before `wiringFrom`) only the value.
  mutating func want(branch steps: [KeyStep], isValueBranch: Bool, from root: AnyObject) {
    var object = root as? any KeyValueObservable
    for (level, step) in steps.enumerated() {
      guard let current = object else { return }
      let isLast = level == steps.count - 1
      want(step, on: current, rereads: !(isLast && isValueBranch), isRoot: level == 0)
      if !isLast { object = step.entry.related?(current) }
    }
  }

  /// Wants a link on `step`'s key of `object`.
  private mutating func want(
    _ step: KeyStep, on object: any KeyValueObservable, rereads: Bool, isRoot: Bool
  ) {
    do {
      let (offset, key) = try step.table.storage(ofKey: step.index, probing: object)
      add(
        key, of: object, offset: offset, notifies: step.entry.notifiesAutomatically,
        counter: nil, rereads: rereads, isRoot: isRoot)
    } catch {
      failure = failure ?? error
    }
  }

  /// Wants a link on every key the getters of `reports` read (a probe that tracks changes):
  /// each reads again when it changes.
  mutating func want(found reports: [StorageProbe.Report]) {
    wanted.reserveCapacity(wanted.count + reports.count)
    targets.reserveCapacity(targets.count + reports.count)
    // The getters of one reading mostly read properties of one class.
    var last: (type: ObjectIdentifier, table: KeyTable)?
    for report in reports {
      guard let object = report.object else { continue }
      let declaring = ObjectIdentifier(report.declaringType)
      let table = last?.type == declaring ? last!.table : KeyTable.of(report.declaringType)
      last = (declaring, table)
      guard let key = table.indexByOffset[report.offset] else { continue }
      add(
        key, of: object, offset: report.offset,
        notifies: table.entries[key].notifiesAutomatically, counter: report.counter,
        rereads: true, isRoot: object === root)
    }
  }

  /// The place of `id` in `wanted`, if it is wanted.
  private func position(of id: LinksStateMachine.Key) -> Int? {
    wanted.count <= Self.searchedLinks
      ? wanted.firstIndex { $0.key == id } : positions[id]
  }

  private mutating func add(
    _ key: Int, of object: any KeyValueObservable, offset: Int?, notifies: Bool,
    counter: UInt32?, rereads: Bool, isRoot: Bool
  ) {
    let id = LinksStateMachine.Key(object: ObjectIdentifier(object), key: key)
    let rereads = rereads || everyLinkRereads
    guard let position = position(of: id) else {
      if wanted.count == Self.searchedLinks {
        for (position, link) in wanted.enumerated() { positions[link.key] = position }
      }
      if wanted.count >= Self.searchedLinks { positions[id] = wanted.count }
      wanted.append(.init(key: id, rereads: rereads, isRoot: isRoot))
      targets.append(
        Target(
          object: object, context: object.observationRegistrar.context(of: object),
          offset: offset, notifies: notifies, counter: counter))
      return
    }
    // Wanted twice (two branches through one object, a getter reading a key a branch has):
    // one link, that reads again if either asks, and knows a getter's counter.
    let merged = wanted[position]
    wanted[position] = .init(
      key: id, rereads: merged.rereads || rereads, isRoot: merged.isRoot || isRoot)
    if targets[position].counter == nil { targets[position].counter = counter }
  }
}
