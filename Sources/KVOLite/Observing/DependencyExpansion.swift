/// Turns an observed key path into the chains of keys whose changes change its value.
///
/// A path ending in an attribute or relationship is one chain: itself. A path ending in a
/// derived key is itself (so that manual notifications of the derived key reach it) plus, for
/// every key path that affects the derived key, the expansion of the prefix followed by that key
/// path: affecting paths may be chains, may pass through `nil` relationships, and may end in
/// other derived keys. Cycles end where a derived key would be expanded inside its own
/// expansion. Identical chains are kept once.
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
enum DependencyExpansion {
  /// The branches of `steps`, the index of the first wiring branch (`branches.count` if there
  /// is none), and the element paths, relative to the root of `steps`.
  static func branches(for steps: [KeyStep]) throws(KeyValueError) -> (
    branches: [[KeyStep]], wiringFrom: Int, elements: [(relationship: String, rest: String)]
  ) {
    var expansion = Expansion()
    try expansion.expand(steps, expanding: [])
    let wiringFrom = expansion.branches.count
    // Every derived to-one along a value branch — the observed path's own, or one an affecting
    // path goes through (`selected.leaf.value`, `selected` derived) — decides which object the
    // rest of that branch hangs on: its expansion re-wires.
    for branch in expansion.branches[..<wiringFrom] {
      for (position, step) in branch.enumerated().dropLast() where step.entry.role == .derived {
        try expansion.expand(Array(branch[...position]), expanding: [])
      }
    }
    return (expansion.branches, wiringFrom, expansion.elements)
  }

  private struct Expansion {
    var branches: [[KeyStep]] = []
    var elements: [(relationship: String, rest: String)] = []

    mutating func expand(_ steps: [KeyStep], expanding: [KeyStep]) throws(KeyValueError) {
      if !branches.contains(where: { same($0, steps) }) { branches.append(steps) }
      guard let last = steps.last, last.entry.role == .derived,
        !expanding.contains(where: { same([$0], [last]) })
      else { return }
      for affecting in last.entry.affectedBy {
        switch try ElementPath.dependency(affecting, in: last.table) {
        case .keys(let relative):
          try expand(steps.dropLast() + relative, expanding: expanding + [last])
        case .elements(let relationship, let rest):
          let chain = steps.dropLast() + relationship
          try expand(chain, expanding: expanding + [last])
          let path = chain.map(\.entry.name).joined(separator: ".")
          if !elements.contains(where: { $0 == (path, rest) }) { elements.append((path, rest)) }
        }
      }
    }

    private func same(_ a: [KeyStep], _ b: [KeyStep]) -> Bool {
      a.count == b.count && zip(a, b).allSatisfy { $0.table === $1.table && $0.index == $1.index }
    }
  }
}
