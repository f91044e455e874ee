import Foundation
import KVOLiteBridge
import KVOLiteTestSupport

/// An element of the crate below: a weight.
final class Bottle: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Bottle> = [.attribute("volume", \.volume)]
  @Observed var volume = 0

  init() { liveObjects.add(1, ordering: .relaxed) }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}

/// A to-many relationship of observable elements.
final class Crate: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  static let observableKeys: ObservableKeys<Crate> = [.toMany("bottles", \.bottles)]
  @Observed var bottles: [Bottle] = []

  init() { liveObjects.add(1, ordering: .relaxed) }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}

/// A key of every element observed (`bottles.volume`) while two threads set the elements'
/// volumes, one inserts and removes elements, and one replaces the whole relationship now and
/// then. Every delivered change must be well-formed (one index and one value for an element's
/// change); once the threads stop, one set of an element's volume must arrive once, at that
/// element's index, with its value; after the token ends, nothing arrives, and nothing is left
/// alive.
enum ElementScenarios {
  static var all: [StressScenario] { [elementsAndRelationship] }

  static let elementsAndRelationship = StressScenario(
    name: "to-many: a key of every element, with the relationship changing"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    do {
      let crate = Crate()
      let pool = (0..<8).map { _ in Bottle() }
      crate.bottles = Array(pool.prefix(4))
      let malformed = Counter()
      let changes = Counter()
      let last = Locked<(index: Int, value: Int)?>(nil)
      let token = try crate.observe("bottles.volume", options: [.new]) { change in
        changes.increment()
        guard change.kind == .replacement else { return }
        guard let indexes = change.indexes, indexes.count == 1,
          let values = (change.newValue ?? nil) as? [Any?], values.count == 1,
          let value = values[0] as? Int
        else { return malformed.increment() }
        last.withLock { $0 = (indexes.first!, value) }
      }
      race(workers: 4) { worker in
        for index in 0..<iterations {
          switch worker {
          case 0, 1: pool[(index + worker) % pool.count].volume = index
          case 2:
            let bottles = crate.mutableArrayValue(for: \.bottles)
            if index % 2 == 0 {
              bottles.append(pool[index % pool.count])
            } else if bottles.count > 0 {
              _ = try? bottles.remove(at: 0)
            }
          default:
            if index % 64 == 0 { crate.bottles = Array(pool.shuffled().prefix(3)) }
          }
        }
      }
      report.count("changes delivered", changes.count)
      report.expect("malformed changes", malformed.count, 0)

      // Quiet now: one set reaches the observer once, at the element's index.
      crate.bottles = [pool[0], pool[1]]
      let before = changes.count
      pool[1].volume = -7
      report.expect("changes for one set", changes.count - before, 1)
      report.check(
        "the set arrived at index 1 with its value",
        last.withLock { $0.map { $0.index == 1 && $0.value == -7 } ?? false })
      token.invalidate()
      let after = changes.count
      pool[0].volume = -8
      report.expect("changes after the token ended", changes.count - after, 0)
    } catch {
      report.failures.append("could not observe: \(error)")
    }
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
