import KVOLiteLocking

/// The trigger a ``LinksObservation`` places on one key of one object.
final class Link: Trigger, @unchecked Sendable {
  /// Strong: the observation's own links are how it is reached. The cycle (observation → link
  /// → observation) is broken when the observation is invalidated, which its token's release
  /// or its root's release always does.
  let observation: LinksObservation
  /// Whether a change through it reads the links again, or only the value.
  let rereads: Bool
  /// Whether it sits on the observation's root.
  let isRoot: Bool

  init(
    observation: LinksObservation, context: RegistrarContext, key: Int, rereads: Bool, isRoot: Bool
  ) {
    self.observation = observation
    self.rereads = rereads
    self.isRoot = isRoot
    super.init(
      order: observation.order, context: context, keyIndex: key, isTyped: false,
      options: observation.options.intersection(.takesChangesInFlight))
  }

  override var link: (observation: LinksObservation, rereads: Bool)? { (observation, rereads) }

  override var rootedObservation: Observation? { isRoot ? observation : nil }
}

/// The link a typed chain places on its last object, when the chain's value type is the last
/// key's own type: the setter delivers to it like to a direct observer, with the value it
/// stored (which is what reading through the chain would give).
final class LeafLink<Root: KeyValueObservable, Value>: ValueTrigger<Value>, @unchecked Sendable {
  /// Strong, as in ``Link``.
  let observation: TypedLinksObservation<Root, Value>
  let isRoot: Bool

  init(
    observation: TypedLinksObservation<Root, Value>, context: RegistrarContext, key: Int,
    isRoot: Bool
  ) {
    self.observation = observation
    self.isRoot = isRoot
    super.init(
      order: observation.order, context: context, keyIndex: key, isTyped: true,
      options: observation.options)
  }

  override var link: (observation: LinksObservation, rereads: Bool)? { (observation, false) }

  override var rootedObservation: Observation? { isRoot ? observation : nil }

  override func deliver(_ object: AnyObject, _ change: KeyValueChange<Value>) {
    observation.deliverLeaf(change)
  }
}
