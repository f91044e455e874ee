/// What SPEC §8 asks of KVOLite in one workload: a ratio to the floor of the same run, and
/// whether KVOLite must also be ahead of every peer (or of one). The report marks a row that
/// misses it.
struct Target {
  /// The largest ratio to the floor that meets the target; `nil` for a workload measured for
  /// information only.
  let ratio: Double?
  /// The peers KVOLite must be faster (or smaller) than: none, every contender that is not a
  /// floor, or one by name.
  enum Peers {
    case none, all
    case named(String)
  }
  let peers: Peers

  /// How "ahead of every peer" is said: "below" for memory.
  let ahead: String

  init(_ ratio: Double?, ahead peers: Peers = .none, saying ahead: String = "ahead of") {
    self.ratio = ratio
    self.peers = peers
    self.ahead = ahead
  }

  /// No target: measured for information.
  static let none = Target(nil)

  /// As printed: "≤ 2×, ahead of every peer".
  var description: String {
    guard let ratio else { return "—" }
    let shown = ratio == ratio.rounded() ? "\(Int(ratio))" : Report.format1(ratio)
    let bound = "≤ \(shown)×"
    switch peers {
    case .none: return bound
    case .all: return bound + ", \(ahead) every peer"
    case .named(let name): return bound + ", \(ahead) the \(name)"
    }
  }

  /// Whether KVOLite's `value` (at `ratio` to the floor) meets the target, given every
  /// contender's value (lower is better); floors are the contenders named `floor…`.
  func isMet(ratio measured: Double, value: Double, among values: [(name: String, value: Double)])
    -> Bool
  {
    guard let ratio else { return true }
    let peerValues: [Double]
    switch peers {
    case .none: peerValues = []
    case .all:
      peerValues = values.filter { !$0.name.hasPrefix("floor") && $0.name != "KVOLite" }.map(
        \.value)
    case .named(let name): peerValues = values.filter { $0.name == name }.map(\.value)
    }
    return measured <= ratio && peerValues.allSatisfy { value < $0 }
  }
}
