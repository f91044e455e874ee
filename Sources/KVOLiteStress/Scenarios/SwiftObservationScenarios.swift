import KVOLiteBridge
import KVOLiteTestSupport
import Observation
import Synchronization

/// A model that Swift Observation sees: a signal and a to-many list of tags.
final class Beacon: KeyValueObservable, Observable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var signal = 0
  @Observed var tags: [Tag] = []

  init() { liveObjects.add(1, ordering: .relaxed) }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}

/// Sets of an `Observable` KVOLite model racing Swift Observation's tracking of it: two threads
/// set a beacon's `signal` and append and remove its `tags` through `mutableArrayValue`, while a
/// third tracks both with `withObservationTracking` over and over (and then sets the signal
/// itself, so that each tracking sees at least one change), and a fourth tracks beacons of its
/// own, sets them from inside an `onChange` too, and lets go of them while tracked.
///
/// Each tracking's `onChange` runs, whoever's set fired it: at least once, and, while sets race,
/// possibly more than once, as with `@Observable` (Swift's tracking calls `onChange` and then
/// cancels itself, so sets on other threads in between call it too); a tracking of a beacon that
/// is never set never runs. KVOLite's own observer of `signal` hears every set once. Once the threads stop and everything is
/// released, nothing is left alive (Swift's registrar, kept in the registrar context, goes with
/// the beacon).
enum SwiftObservationScenarios {
  static var all: [StressScenario] { [setsRacingTracking] }

  static let setsRacingTracking = StressScenario(
    name: "Swift Observation: sets and proxy mutations racing withObservationTracking"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let trackings = max(1, iterations / 8)
    let fired = (0..<trackings).map { _ in Counter() }
    let ownFired = (0..<trackings).map { _ in Counter() }
    let sets = Counter()
    let heard = Counter()
    do {
      let beacon = Beacon()
      let token = beacon.observe(\.signal, options: [.new]) { _, _ in heard.increment() }
      race(workers: 4) { worker in
        switch worker {
        case 0:
          for i in 0..<iterations {
            beacon.signal = i
            sets.increment()
          }
        case 1:
          let tags = beacon.mutableArrayValue(for: \.tags)
          for i in 0..<iterations {
            if i % 2 == 0 {
              tags.append(Tag(writer: 1, index: i))
            } else {
              tags.removeAll()
            }
          }
        case 2:
          for round in 0..<trackings {
            withObservationTracking {
              _ = beacon.signal
              _ = beacon.tags.count
            } onChange: {
              fired[round].increment()
            }
            beacon.signal = -round
            sets.increment()
          }
        default:
          for round in 0..<trackings {
            let own = Beacon()
            withObservationTracking {
              _ = own.signal
            } onChange: {
              ownFired[round].increment()
            }
            if round % 2 == 0 { own.signal = round }
            withObservationTracking {
              _ = own.tags
            } onChange: { [weak own] in
              // A set from inside onChange (which runs before the change is stored). Weakly:
              // the handler of a tracking that never fires stays in the object's registrar, as
              // with `@Observable`, so a strong capture would keep the beacon alive.
              own?.signal += 1
            }
            if round % 4 == 0 {
              own.mutableArrayValue(for: \.tags).append(Tag(writer: 3, index: round))
            }
          }
        }
      }
      report.count("trackings fired", fired.reduce(0) { $0 + $1.count })
      report.check(
        "a tracking's onChange never ran", fired.allSatisfy { $0.count >= 1 })
      report.check(
        "an own beacon's tracking ran other than once when set (from one thread), or ran unset",
        ownFired.enumerated().allSatisfy { $0.element.count == ($0.offset % 2 == 0 ? 1 : 0) })
      report.expect("KVOLite notifications of signal", heard.count, sets.count)
      withExtendedLifetime(token) {}
    }
    report.expect("live objects after release", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
