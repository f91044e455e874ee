import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// A model whose array threads mutate in place; its elements count themselves (an element's
/// `deinit` may run inside a mutation).
final class Shelf: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var slots: [Tag] = []

  init() { liveObjects.add(1, ordering: .relaxed) }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}

extension Array where Element == Tag {
  /// Appends the tag that keeps the array a prefix: its index is the count.
  mutating func appendNext(writer: Int) {
    append(Tag(writer: writer, index: count))
  }

  /// Removes the last `count` tags, or as many as there are.
  mutating func removeLast(upTo limit: Int) {
    removeLast(Swift.min(limit, count))
  }

  /// Whether the tags' indexes are 0, 1, 2, … (every mutation of the scenario keeps that).
  var isPrefix: Bool {
    indices.allSatisfy { self[$0].index == $0 }
  }
}

/// In-place mutations (`slots.append`, `removeLast`, `removeAll(where:)`) racing every other
/// entry point of the same property: two threads mutate it in place (one waiting for the
/// other's mutation, then mutating a copy and setting it), one reads it by the getter, by
/// key-value coding and through its proxy, and one registers and invalidates observers of it,
/// sets it, and replaces the shelf now and then, so that a shelf's last release — and its
/// storage's `deinit` — races the mutations of the threads still holding it.
///
/// Every mutation keeps the array a prefix (element `i` has index `i`): a reader or an
/// observer that sees anything else saw a storage mid-mutation. Released tags (and shelves) are
/// counted: nothing is left alive at the end.
enum InPlaceMutationScenarios {
  static var all: [StressScenario] { [mutationsRacingEverything] }

  static let mutationsRacingEverything = StressScenario(
    name: "in place: appends and removals racing reads, sets, observers and the shelf's release"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let current = Locked(Shelf())
    let malformed = Counter()
    let notifications = Counter()
    let reads = Counter()
    race(workers: 4) { worker in
      for index in 0..<iterations {
        let shelf = current.withLock { $0 }
        switch worker {
        case 0, 1:
          shelf.slots.appendNext(writer: worker)
          if index % 7 == 0 { shelf.slots.removeLast(upTo: 3) }
          if index % 101 == 0 { shelf.slots.removeAll { $0.index >= 2 } }
        case 2:
          if !shelf.slots.isPrefix { malformed.increment() }
          if let slots = try? shelf.value(forKey: "slots") as? [Tag], !slots.isPrefix {
            malformed.increment()
          }
          if !shelf.mutableArrayValue(for: \.slots).elements.isPrefix { malformed.increment() }
          reads.increment()
        default:
          let token = shelf.observe(\.slots, options: [.new]) { _, change in
            notifications.increment()
            if change.newValue.map({ !$0.isPrefix }) ?? true { malformed.increment() }
          }
          if index % 5 == 0 { shelf.slots = Array(shelf.slots.prefix(1)) }
          token.invalidate()
          if index % 50 == 0 { current.withLock { $0 = Shelf() } }
        }
      }
    }
    do {
      let last = current.withLock { $0 }
      report.check("the final array is a prefix", last.slots.isPrefix)
    }
    report.count("reads", reads.count)
    report.count("notifications", notifications.count)
    report.expect("malformed values", malformed.count, 0)
    // Only the empty shelf left in `current` is alive once the last one is let go.
    current.withLock { $0 = Shelf() }
    report.expect(
      "objects left alive besides an empty shelf", liveObjects.load(ordering: .relaxed),
      baseline + 1)
    return report
  }
}
