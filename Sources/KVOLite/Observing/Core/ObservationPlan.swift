/// What observing a key path takes, decided once, when the key path is resolved: the kind of
/// observation and what it is made of. ``KeyValueObservable/observe(_:options:changeHandler:)-(KeyPath<Self,Value>,_,_)``
/// and ``KeyValueObservable/register(_:options:handler:)`` switch on it once; no kind is chosen
/// by trying another first.
///
/// | plan | key paths | observation |
/// |---|---|---|
/// | ``direct(_:)`` | one stored key, read from its own storage | a record in the key's observer list (``TypedRecord``) |
/// | ``links(_:)`` | chains, derived keys (declared inputs, or found by reading), computed properties | ``TypedLinksObservation`` |
/// | ``elements(relationship:rest:)`` | a key of every element (`contents.weight`) | ``ElementObservation`` |
/// | ``aggregate(steps:expansion:operator:)`` | an operator over elements (`contents.@sum.weight`), a derived key over elements | ``AggregateObservation`` |
/// | ``forwarded(prefix:rest:unresolved:)`` | a rest the declared types do not reach (a subclass's key, a registration taken over) | ``ForwardedObservation`` |
enum ObservationPlan {
  /// One stored key, read from its own storage (the object is of the class whose property it
  /// is): a record in the key's observer list.
  case direct(KeyStep)
  /// Links on objects: along branches, and on the keys getters read.
  case links(LinksPlan)
  /// A key of every element of a to-many relationship: the path to the relationship and the
  /// key path on each element.
  case elements(relationship: String, rest: String)
  /// A value over elements: a collection operator over the relationship `steps` lead to, or a
  /// derived key whose expansion reaches elements.
  case aggregate(
    steps: [KeyStep], expansion: DependencyExpansion,
    operator: (op: CollectionOperator, rest: String?, path: String)?)
  /// The rest of a string key path, registered on the object the declared types reach.
  case forwarded(prefix: String, rest: String, unresolved: KeyValueError)

  /// The plan of string key path `keyPath` on `object`, whose class's keys are `table`.
  ///
  /// - Throws: the path's ``KeyValueError``.
  static func of(_ keyPath: String, on object: AnyObject, in table: KeyTable)
    throws(KeyValueError) -> ObservationPlan
  {
    if let (relationship, rest) = try ElementPath.split(keyPath, in: table) {
      return .elements(relationship: relationship, rest: rest)
    }
    let path = try table.keyValuePath(keyPath)
    if case .rest(let rest)? = path.components.last {
      // The declared types stop before the end: the rest is registered on the object there,
      // with its own `addObserver` (its class's keys, or its own registration).
      return .forwarded(prefix: rest.before, rest: rest.text, unresolved: rest.error)
    }
    let (steps, hasOperator) = try path.observedSteps()
    if hasOperator, case .collect(let op, let right)? = path.components.last {
      return .aggregate(
        steps: steps, expansion: try DependencyExpansion(steps),
        operator: (op, right?.text, keyPath))
    }
    if steps.count == 1, steps[0].entry.makeErasedRecord != nil,
      steps[0].entry.readsStorage(of: object)
    {
      return .direct(steps[0])
    }
    return try following(steps, isExactToMany: steps.last!.entry.role == .toMany)
  }

  /// The plan of a typed key path on `object`: `steps`, the keys it resolved to, or `nil` for
  /// a key path that is not made of keys (a computed property, an optional chain), whose
  /// inputs are found by reading it; `undeclared` is its error if it reads no ``Observed`` key.
  static func of(typed steps: [KeyStep]?, on object: AnyObject, undeclared: KeyValueError)
    throws(KeyValueError) -> ObservationPlan
  {
    guard let steps else {
      return .links(
        LinksPlan(
          branches: [], wiringFrom: 0, isExactToMany: false, readsValues: true,
          readers: [.value], unobservable: undeclared))
    }
    let isOneKey = steps.count == 1 && steps[0].entry.role != .derived
    if isOneKey, steps[0].entry.readsStorage(of: object) { return .direct(steps[0]) }
    // One key of a superclass, on an object of a subclass that may override its getter: the
    // values are read through the key path, as Foundation reads them.
    return try following(
      steps, isExactToMany: steps.last!.entry.role == .toMany, readsValues: isOneKey)
  }

  /// Links along the expansion of `steps`, or an aggregate if it reaches elements.
  private static func following(
    _ steps: [KeyStep], isExactToMany: Bool, readsValues: Bool = false
  ) throws(KeyValueError) -> ObservationPlan {
    let expansion = try DependencyExpansion(steps)
    guard expansion.elements.isEmpty else {
      return .aggregate(steps: steps, expansion: expansion, operator: nil)
    }
    let isDerived = steps.last!.entry.role == .derived
    return .links(
      LinksPlan(
        branches: expansion.branches, wiringFrom: expansion.wiringFrom,
        isExactToMany: isExactToMany && !isDerived, readsValues: readsValues || isDerived,
        readers: expansion.readers, unobservable: nil))
  }
}

/// What a links observation is made of (see ``TypedLinksObservation``).
struct LinksPlan {
  /// The chains of keys its value depends on (see ``DependencyExpansion``).
  let branches: [[KeyStep]]
  /// Branches from this index on are wiring branches: their last links read the links again,
  /// like relationships along a chain.
  let wiringFrom: Int
  /// Observes a to-many key itself, so it takes to-many changes as they are.
  let isExactToMany: Bool
  /// Whether the value is always read through the key path (a derived key's, an overriding
  /// getter's), never taken from the last key's set.
  let readsValues: Bool
  /// The getters whose reads find inputs.
  let readers: [LinksReader]
  /// The error when nothing is linked at the start (a getter that read no ``Observed`` key and
  /// no declared input): such a value cannot be observed.
  let unobservable: KeyValueError?
}
