import Foundation
import KVOLiteBridge
import KVOLiteTestSupport

/// A to-many relationship kept by indexed accessors (a van's bottles), changed from three
/// threads — inserts and removes at any index, replacements — each change made under the van's
/// lock, as ``IndexedAccessors`` asks, while a fourth thread sets the elements' volumes without
/// it. Observed exactly (`bottles`), element by element (`bottles.volume`), through `@sum` and
/// through a derived key (`load`, affected by `bottles.volume`). The accessors must only ever
/// be called under the lock, with indexes in range; each observer's changes must rebuild the
/// model; one token ends from another thread.
enum IndexedAccessorScenarios {
  static var all: [StressScenario] { [changedUnderTheOwnersLock] }

  static let changedUnderTheOwnersLock = StressScenario(
    name: "to-many: indexed accessors changed from several threads under their owner's lock"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let (rounds, operations) = ElementScenarios.rounds(iterations)
    var delivered = 0
    for round in 0..<rounds {
      do {
        let van = Van()
        let pool = (0..<5).map { _ in Bottle() }
        let exact = ToManyReplay<Bottle>()
        let volumes = ToManyReplay<Int>()
        let sum = ValueTrack<String>()
        let load = ValueTrack<Int>()
        let other = EndingObserver()
        // Registration reads the relationship too: under the lock.
        let tokens = try van.withLock { van in
          try van.mutateToMany(
            .insertion, forKeyPath: "bottles", at: [0, 1], elements: [pool[0], pool[0]])
          other.token = try van.observe("bottles.volume") { [weak other] _ in other?.delivered() }
          return [
            try van.observe("bottles", options: [.initial, .old, .new]) { exact.apply($0) },
            try van.observe("bottles.volume", options: [.initial, .old, .new]) {
              volumes.apply($0)
            },
            try van.observe("bottles.@sum.volume", options: [.initial, .old, .new]) {
              sum.apply(erased: $0)
            },
            van.observe(\.load, options: [.initial, .old, .new]) { _, change in
              load.apply(change)
            },
          ]
        }
        race(workers: 4) { worker in
          for index in 0..<operations {
            guard worker < 3 else {
              if index == operations / 2 { other.end() }
              pool[index % pool.count].volume = index
              continue
            }
            van.withLock { van in
              let count = van.bottles.count
              let bottle = pool[(index + worker) % pool.count]
              // Inserts at any index and removes from any index, keeping a few elements.
              if worker == 2, count > 0 {
                try? van.mutateToMany(
                  .replacement, forKeyPath: "bottles", at: [index % count], elements: [bottle])
              } else if count < 2 || (count < 8 && (index + worker) % 2 == 0) {
                try? van.mutateToMany(
                  .insertion, forKeyPath: "bottles", at: [index % (count + 1)],
                  elements: [bottle])
              } else {
                try? van.mutateToMany(.removal, forKeyPath: "bottles", at: [index % count])
              }
            }
          }
        }
        let name = "round \(round)"
        let bottles = van.bottles
        report.expect("\(name): accessor calls without the lock or out of range", van.misuses, 0)
        report.failures += exact.problems.map { "\(name): bottles: \($0)" }
        report.failures += volumes.problems.map { "\(name): bottles.volume: \($0)" }
        report.failures += (sum.problems + load.problems).map { "\(name): sums: \($0)" }
        report.check("\(name): bottles rebuilt", exact.elements == bottles)
        report.expect("\(name): volumes rebuilt", volumes.elements, bottles.map(\.volume))
        report.expect("\(name): @sum", sum.last, "\(van.load)")
        report.expect("\(name): load", load.last, van.load)
        report.expect("\(name): calls after invalidate() returned", other.late, 0)
        delivered += exact.changes + volumes.changes + sum.changes + load.changes
        for token in tokens { token.invalidate() }
      } catch {
        report.failures.append("could not observe: \(error)")
      }
      if report.failures.count > 20 { break }
    }
    report.count("rounds", rounds)
    report.count("changes delivered", delivered)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
