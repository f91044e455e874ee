import Foundation
import KVOLiteBridge
import KVOLiteTestSupport

/// A derived key over a key of every element (`totalVolume`, affected by `bottles.volume`) and
/// collection operators over it (`@sum`, `@max`, `@count`, `@unionOfObjects`), observed while
/// threads set the elements, insert, remove and replace them and set the relationship; tokens
/// end from another thread and from inside a delivery. Round after round, every old value must
/// be the previous new one, and the last value each observer received must be the model's.
enum AggregateScenarios {
  static var all: [StressScenario] { [aggregatesOverElements] }

  static let aggregatesOverElements = StressScenario(
    name: "to-many: a derived key and operators over a key of every element"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let (rounds, operations) = ElementScenarios.rounds(iterations)
    var delivered = 0
    for round in 0..<rounds {
      do {
        let crate = Crate()
        let pool = (0..<6).map { _ in Bottle() }
        crate.bottles = [pool[0], pool[1], pool[0]]
        let prior: ObservingOptions = round % 2 == 0 ? [] : [.prior]
        let total = ValueTrack<Int>()
        let derived = crate.observe(\.totalVolume, options: prior.union([.initial, .old, .new])) {
          _, change in total.apply(change)
        }
        let paths = [
          "bottles.@sum.volume", "bottles.@max.volume", "bottles.@count",
          "bottles.@unionOfObjects.volume",
        ]
        let tracks = paths.map { _ in ValueTrack<String>() }
        var tokens: [ObservationToken] = []
        for (path, track) in zip(paths, tracks) {
          tokens.append(
            try crate.observe(path, options: prior.union([.initial, .old, .new])) {
              track.apply(erased: $0)
            })
        }
        let other = EndingObserver()
        other.token = try crate.observe("bottles.@sum.volume") { [weak other] _ in
          other?.delivered()
        }
        let inside = EndingObserver(endsInside: 10)
        inside.token = crate.observe(\.totalVolume) { [weak inside] _, _ in inside?.delivered() }
        // An operator that follows its relationship (changes taken as made) ends inside too.
        let insideSum = EndingObserver(endsInside: 7)
        insideSum.token = try crate.observe("bottles.@sum.volume") { [weak insideSum] _ in
          insideSum?.delivered()
        }
        race(workers: 4) { worker in
          for index in 0..<operations {
            if worker == 3, index == operations / 2 { other.end() }
            ElementScenarios.change(crate, pool, worker: worker, index: index)
          }
        }
        let name = "round \(round)"
        let volumes = crate.bottles.map(\.volume)
        let expected = [
          "\(volumes.reduce(0, +))", volumes.max().map { "\($0)" } ?? "nil", "\(volumes.count)",
          "\(volumes)",
        ]
        report.failures += total.problems.map { "\(name): totalVolume: \($0)" }
        report.expect("\(name): totalVolume", total.last, crate.totalVolume)
        for (path, (track, value)) in zip(paths, zip(tracks, expected)) {
          report.failures += track.problems.map { "\(name): \(path): \($0)" }
          report.expect("\(name): \(path)", track.last, value)
        }
        report.expect("\(name): calls after invalidate() returned", other.late, 0)
        report.expect("\(name): calls after invalidating inside", inside.late, 0)
        report.expect("\(name): @sum calls after invalidating inside", insideSum.late, 0)
        delivered += total.changes + tracks.map(\.changes).reduce(0, +)
        derived.invalidate()
        for token in tokens { token.invalidate() }
        inside.end()
        insideSum.end()
        report.expect(
          "\(name): observations left on the elements",
          pool.map(\.observationRegistrar.triggerCount).reduce(0, +), 0)
      } catch {
        report.failures.append("could not observe: \(error)")
      }
      if report.failures.count > 20 { break }
    }
    report.count("rounds", rounds)
    report.count("values delivered", delivered)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
