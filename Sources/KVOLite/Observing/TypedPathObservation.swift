import Foundation
import KVOLiteLocking

/// A path observation with a typed root, value and handler.
///
/// It refers to its root weakly: the root is not kept alive, and a delivery gets it only while
/// it is not being released.
final class TypedPathObservation<Root: KeyValueObservable, Value>: PathObservation,
  @unchecked Sendable
{
  // @unchecked: immutable but for the weak reference, which the runtime reads atomically; the
  // base class guards its own state.
  private weak var root: Root?
  private let read: (Root) -> Value
  /// Converts the elements of an exact to-many change (boxed `[Element]`) to `Value`.
  private let elements: (Any) -> Value
  private let handler: (Root, KeyValueChange<Value>) -> Void
  /// Whether this is one branch whose last key is stored as `Value`, so that the key's setter
  /// can deliver its value directly (a ``LeafLink``).
  private let leafIsValue: Bool

  init(
    root: Root, branches: [[KeyStep]], wiringFrom: Int, isExactToMany: Bool, isDerived: Bool,
    options: ObservingOptions, read: @escaping (Root) -> Value,
    elements: @escaping (Any) -> Value, handler: @escaping (Root, KeyValueChange<Value>) -> Void
  ) {
    self.root = root
    self.read = read
    self.elements = elements
    self.handler = handler
    leafIsValue =
      branches.count == 1 && !isDerived && branches[0].last!.entry.storedType == Value.self
    super.init(
      branches: branches, wiringFrom: wiringFrom, isExactToMany: isExactToMany, options: options)
  }

  override var rootObject: (any KeyValueObservable)? { root }

  override func makeLink(context: RegistrarContext, key: Int, level: Int, isLeaf: Bool) -> Trigger {
    guard leafIsValue, isLeaf else {
      return super.makeLink(context: context, key: key, level: level, isLeaf: isLeaf)
    }
    return LeafLink(observation: self, context: context, key: key, level: level)
  }

  /// Delivers a change of the last key, already in the observation's terms.
  func deliverLeaf(_ change: KeyValueChange<Value>) {
    guard let root else { return }
    handler(root, change)
  }

  /// Sends the `.initial` notification.
  func sendInitial() {
    guard isActive, let root else { return }
    let change = KeyValueChange(kind: .setting, newValue: wantsNew ? read(root) : nil)
    DeliveryScope.run { handler(root, change) }
  }

  override func willChange(kind: KeyValueChangeKind, indexes: IndexSet?, keyOld: Any?) -> Any? {
    guard let root else { return nil }
    let exact = isExactToMany && kind != .setting
    let old: Value? =
      !wantsOld ? nil : exact ? keyOld.map(elements) : read(root)
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
    isLeaf: Bool, kind: KeyValueChangeKind, indexes: IndexSet?, old: Any?, keyNew: Any?
  ) {
    guard let root else { return }
    // A relationship replaced by an object whose keys cannot be observed leaves the branch cut
    // there; the value is still read through the whole path.
    if !isLeaf { try? rewire() }
    let exact = isExactToMany && kind != .setting
    let new: Value? = !wantsNew ? nil : exact ? keyNew.map(elements) : read(root)
    handler(
      root,
      KeyValueChange(
        kind: exact ? kind : .setting, oldValue: old.map { $0 as! Value }, newValue: new,
        indexes: exact ? indexes : nil))
  }
}

/// The link a typed chain places on its last object, when the chain's value type is the last
/// key's own type: the setter delivers to it like to a direct observer, with the value it
/// stored (which is what reading through the chain would give).
final class LeafLink<Root: KeyValueObservable, Value>: ValueTrigger<Value>, @unchecked Sendable {
  /// Strong, as in ``PathLink``.
  let observation: TypedPathObservation<Root, Value>
  let level: Int

  init(
    observation: TypedPathObservation<Root, Value>, context: RegistrarContext, key: Int, level: Int
  ) {
    self.observation = observation
    self.level = level
    super.init(
      order: observation.order, context: context, keyIndex: key, isTyped: true,
      options: observation.options)
  }

  override var path: (observation: PathObservation, level: Int, isLeaf: Bool)? {
    (observation, level, true)
  }

  override func deliver(_ object: AnyObject, _ change: KeyValueChange<Value>) {
    observation.deliverLeaf(change)
  }
}
