import Foundation
import KVOLiteLocking

/// An observation of a computed value whose inputs are found by reading it: the ``Observed``
/// keys (of any object: the root, objects along to-one chains, elements) that its getter read.
///
/// Each read that matters runs the getter while probing (see ``StorageProbe``): at the start,
/// and after every change of an input, so that a getter that reads other keys on another
/// branch is followed. A link sits on every input read last; inputs no longer read lose theirs.
/// A declared derived key's own inputs (its `affectedBy` branches, wired as by
/// ``PathObservation``) are watched as well: the two merge, and one change gives one
/// notification however many links it hits (see ``ChangeFrame``).
///
/// Threads: the found inputs are a ``FoundInputs`` machine behind `tracking`; the getter runs
/// with no lock held, links are placed with `tracking` held (then property locks, as
/// `wiring` is taken), and links no longer read are detached, and the objects read released,
/// after unlocking. ``invalidate()`` waits for deliveries in flight, as every token does, and for
/// the handler's calls in progress (an ``InFlightGate``): none starts after it returned.
final class FoundInputsObservation<Root: KeyValueObservable, Value>: PathObservation,
  @unchecked Sendable
{
  // @unchecked: `found` is behind `tracking`; the rest is immutable but for the weak root,
  // which the runtime reads atomically.
  private weak var root: Root?
  private let read: (Root) -> Value
  private let handler: (Root, KeyValueChange<Value>) -> Void
  /// The lock of `found`. (Not `Synchronization.Mutex`, as for `wiring`.)
  private let tracking = Lock(rank: .links)
  private var found = FoundInputs()
  /// Counts the calls of the handler in progress, so that ``invalidate()`` waits for them: a
  /// delivery may come through a link that a re-read has already dropped (and that
  /// ``FoundInputs`` no longer holds), so waiting for the links' lists is not enough.
  private let calls = InFlightGate()

  init(
    root: Root, branches: [[KeyStep]], wiringFrom: Int, options: ObservingOptions,
    read: @escaping (Root) -> Value, handler: @escaping (Root, KeyValueChange<Value>) -> Void
  ) {
    self.root = root
    self.read = read
    self.handler = handler
    super.init(branches: branches, wiringFrom: wiringFrom, isExactToMany: false, options: options)
  }

  override var rootObject: (any KeyValueObservable)? { root }

  /// Wires the declared branches and finds the inputs. Returns whether anything is watched
  /// (a getter that read no ``Observed`` key and has no declared inputs cannot be observed).
  func start() throws(KeyValueError) -> Bool {
    try rewire()
    _ = retrack()
    return !branches.isEmpty || tracking.withLock { found.count } > 0
  }

  /// Reads the value while probing and links exactly the inputs that read touched; returns the
  /// value, or `nil` once the observation ended or its root is gone.
  @discardableResult
  func retrack() -> Value? {
    guard let root, let generation = tracking.withLock({ found.beginRead() }) else { return nil }
    let (value, reports) = StorageProbe.value { read(root) }
    var inputs:
      [FoundInputs.Input: (
        object: any KeyValueObservable, offset: Int, notifies: Bool, context: RegistrarContext
      )] = [:]
    for report in reports {
      let table = KeyTable.of(report.declaringType)
      guard let object = report.object, let key = table.indexByOffset[report.offset] else {
        continue
      }
      inputs[FoundInputs.Input(object: ObjectIdentifier(object), key: key)] = (
        object, report.offset, table.entries[key].notifiesAutomatically,
        object.observationRegistrar.context(of: object)
      )
    }
    var detached: [Trigger] = []
    defer {
      // After unlocking: the links may hold the last references to registrar contexts, and
      // `inputs` and `reports` to the objects read.
      for trigger in detached { _ = trigger.detach() }
    }
    tracking.withLock {
      guard let plan = found.place(generation, found: Set(inputs.keys)) else { return }
      detached = plan.detach
      for input in plan.link {
        guard let (object, offset, notifies, context) = inputs[input] else { continue }
        // Level 0 only on the root: the end of the root ends the observation, not the end of
        // an input elsewhere (see ``RegistrarState/tearDown()``).
        let link = PathLink(
          observation: self, context: context, key: input.key, level: object === root ? 0 : 1,
          isLeaf: true)
        guard context.add(link) else { continue }
        found.setLink(link, for: input)
        if notifies {
          StorageState.markObserved(object, offset: offset, key: input.key)
        }
      }
    }
    return value
  }

  /// Sends the `.initial` notification.
  func sendInitial() {
    guard isActive, let root, calls.enter() else { return }
    defer { calls.leave() }
    let change = KeyValueChange(kind: .setting, newValue: wantsNew ? read(root) : nil)
    DeliveryScope.run { handler(root, change) }
  }

  override func willChange(kind: KeyValueChangeKind, indexes: IndexSet?, keyOld: Any?) -> Any? {
    guard let root, calls.enter() else { return nil }
    defer { calls.leave() }
    let old: Value? = wantsOld ? read(root) : nil
    if wantsPrior {
      handler(root, KeyValueChange(kind: .setting, oldValue: old, isPrior: true))
    }
    return old.map { $0 as Any }
  }

  override func didChange(
    isLeaf: Bool, kind: KeyValueChangeKind, indexes: IndexSet?, old: Any?, keyNew: Any?
  ) {
    guard let root, calls.enter() else { return }
    defer { calls.leave() }
    if !isLeaf { try? rewire() }
    // The new value is the one the re-read read.
    let value = retrack()
    let new: Value? = !wantsNew ? nil : value ?? read(root)
    handler(
      root, KeyValueChange(kind: .setting, oldValue: old.map { $0 as! Value }, newValue: new))
  }

  override func invalidate() {
    if let links = tracking.withLock({ found.end() }) {
      // Detached outside the lock: the links may hold the last references to this object.
      waitForDeliveries(holding: links.map { $0.detach() })
    }
    super.invalidate()
    // Then the handler's calls, also those through links dropped by re-reads (only closed when
    // called from inside a delivery, as every token's invalidation).
    calls.closeAndWait()
  }
}
