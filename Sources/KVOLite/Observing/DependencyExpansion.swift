/// Turns an observed key path into the chains of keys whose changes change its value.
///
/// A path ending in an attribute or relationship is one chain: itself. A path ending in a
/// derived key is itself (so that manual notifications of the derived key reach it) plus, for
/// every key path that affects the derived key, the expansion of the prefix followed by that key
/// path: affecting paths may be chains, may pass through `nil` relationships, and may end in
/// other derived keys. Cycles end where a derived key would be expanded inside its own
/// expansion. Identical chains are kept once.
///
/// A derived to-one key *along* a branch (`primary.firstName`, where `primary` is derived,
/// whether in the observed path or in a path that affects a derived key) decides which object
/// the rest of the branch hangs on: its own expansion is added after the others, as *wiring*
/// branches, whose changes re-wire the observation rather than being its value.
enum DependencyExpansion {
  /// The branches of `steps`, and the index of the first wiring branch (`branches.count` if
  /// there is none).
  static func branches(for steps: [KeyStep]) throws(KeyValueError) -> (
    branches: [[KeyStep]], wiringFrom: Int
  ) {
    var branches: [[KeyStep]] = []
    try expand(steps, expanding: [], into: &branches)
    let wiringFrom = branches.count
    // Every derived to-one along a value branch — the observed path's own, or one an affecting
    // path goes through (`selected.leaf.value`, `selected` derived) — decides which object the
    // rest of that branch hangs on: its expansion re-wires.
    for branch in branches[..<wiringFrom] {
      for (position, step) in branch.enumerated().dropLast() where step.entry.role == .derived {
        var wiring: [[KeyStep]] = []
        try expand(Array(branch[...position]), expanding: [], into: &wiring)
        branches += wiring.filter { wired in !branches.contains { same($0, wired) } }
      }
    }
    return (branches, wiringFrom)
  }

  private static func expand(
    _ steps: [KeyStep], expanding: [KeyStep], into branches: inout [[KeyStep]]
  ) throws(KeyValueError) {
    if !branches.contains(where: { same($0, steps) }) { branches.append(steps) }
    guard let last = steps.last, last.entry.role == .derived,
      !expanding.contains(where: { same([$0], [last]) })
    else { return }
    for affecting in last.entry.affectedBy {
      let relative = try KeyValuePath(affecting, in: last.table).observedSteps().steps
      try expand(steps.dropLast() + relative, expanding: expanding + [last], into: &branches)
    }
  }

  private static func same(_ a: [KeyStep], _ b: [KeyStep]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0.table === $1.table && $0.index == $1.index }
  }
}
