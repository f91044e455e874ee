/// Turns an observed key path into what its value depends on: chains of keys (*branches*), and
/// the getters whose reads find inputs (*readers*).
///
/// A path ending in an attribute or relationship is one branch: itself. A path ending in a
/// derived key is itself (so that manual notifications of the derived key reach it) plus:
///
/// - for a derived key declared with `affectedBy`, the expansion of the prefix followed by
///   each of those key paths, exactly (Foundation's dependencies): affecting paths may be
///   chains, may pass through `nil` relationships, and may end in other derived keys;
/// - for one declared without (and a computed property observed by typed key path, which the
///   plan handles), a reader: its getter, read on the object the prefix leads to, finds its
///   inputs (see ``LinksReading``).
///
/// Cycles end where a derived key would be expanded inside its own expansion. Identical
/// chains are kept once.
///
/// An affecting path that reaches a key of every element of a to-many relationship
/// (`books.pages`, or `books.@sum.pages`) is not a chain: its chain ends at the relationship
/// (so that a change of the relationship, or of an object on the way to it, is one change of
/// the observation), and the element path is returned apart, as the path to the relationship
/// and the key path on its elements, for an ``AggregateObservation`` to follow.
///
/// A derived to-one key *along* a branch (`primary.firstName`, where `primary` is derived,
/// whether in the observed path or in a path that affects a derived key) decides which object
/// the rest of the branch hangs on: its own expansion is added after the others, as *wiring*
/// branches, whose changes re-wire the observation rather than being its value.
struct DependencyExpansion {
  /// The chains of keys, value branches first.
  private(set) var branches: [[KeyStep]] = []
  /// The index of the first wiring branch (`branches.count` if there is none).
  private(set) var wiringFrom = 0
  /// Key paths of every element of a relationship: the path to the relationship and the key
  /// path on each element, relative to the root.
  private(set) var elements: [(relationship: String, rest: String)] = []
  /// The getters whose reads find inputs.
  private(set) var readers: [LinksReader] = []

  /// The expansion of `steps`.
  init(_ steps: [KeyStep]) throws(KeyValueError) {
    try expand(steps, expanding: [], observed: steps)
    wiringFrom = branches.count
    // Every derived to-one along a value branch — the observed path's own, or one an affecting
    // path goes through (`selected.leaf.value`, `selected` derived) — decides which object the
    // rest of that branch hangs on: its expansion re-wires.
    for branch in branches[..<wiringFrom] {
      for (position, step) in branch.enumerated().dropLast() where step.entry.role == .derived {
        try expand(Array(branch[...position]), expanding: [], observed: steps)
      }
    }
  }

  private mutating func expand(_ steps: [KeyStep], expanding: [KeyStep], observed: [KeyStep])
    throws(KeyValueError)
  {
    if !branches.contains(where: { Self.same($0, steps) }) { branches.append(steps) }
    guard let last = steps.last, last.entry.role == .derived,
      !expanding.contains(where: { Self.same([$0], [last]) })
    else { return }
    guard let affectedBy = last.entry.affectedBy else {
      // Found by reading: the observed value's own getter when it is this derived key (one
      // reading gives both the value and its inputs), else this key's getter where it stands.
      let reader =
        Self.same(steps, observed)
        ? LinksReader.value : .derived(prefix: Array(steps.dropLast()), entry: last.entry)
      if !readers.contains(reader) { readers.append(reader) }
      return
    }
    for affecting in affectedBy {
      switch try ElementPath.dependency(affecting, in: last.table) {
      case .keys(let relative):
        try expand(steps.dropLast() + relative, expanding: expanding + [last], observed: observed)
      case .elements(let relationship, let rest):
        let chain = steps.dropLast() + relationship
        try expand(chain, expanding: expanding + [last], observed: observed)
        let path = chain.map(\.entry.name).joined(separator: ".")
        if !elements.contains(where: { $0 == (path, rest) }) { elements.append((path, rest)) }
      }
    }
  }

  static func same(_ a: [KeyStep], _ b: [KeyStep]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.table === $1.table && $0.index == $1.index }
  }
}

/// A getter whose reads find a links observation's inputs.
enum LinksReader: Equatable {
  /// The observation's own read of its value (a computed property observed by typed key path,
  /// a derived key declared without `affectedBy` at the end of the observed path).
  case value
  /// A derived key declared without `affectedBy`, read on the object `prefix` leads to (one
  /// that affects the observed key, or decides where a branch leads).
  case derived(prefix: [KeyStep], entry: KeyEntry)

  static func == (lhs: LinksReader, rhs: LinksReader) -> Bool {
    switch (lhs, rhs) {
    case (.value, .value): true
    case (.derived(let a, let x), .derived(let b, let y)):
      x === y && DependencyExpansion.same(a, b)
    default: false
    }
  }
}
