import KVOLite
import KVOLiteTestSupport
import Synchronization

/// A model with an undeclared computed property whose inputs change with its branch: `reading`
/// reads `left` or `right` as `useLeft` says, and the `left` of every part.
final class Relay: KeyValueObservable, @unchecked Sendable {
  let observationRegistrar = ObservationRegistrar()
  @Observed var useLeft = true
  @Observed var left = 0
  @Observed var right = 0
  @Observed var parts: [Relay] = []
  var reading: Int { (useLeft ? left : right) + parts.reduce(0) { $0 + $1.left } }

  init() { liveObjects.add(1, ordering: .relaxed) }
  deinit { liveObjects.subtract(1, ordering: .relaxed) }
}

/// Sets of a derived key's inputs racing its re-tracking and its cancellation: one thread sets
/// `left` and `right`; one switches the branch, replaces the parts and sets a part's `left`
/// (so each change re-reads the getter and moves its links); one observes `reading` (found by
/// reading) and invalidates the observation, from itself after `invalidate()` must have waited,
/// and from inside a delivery; one keeps an observation for the whole run.
///
/// Checks: no handler runs after `invalidate()` returned on another thread than the delivery;
/// after the threads stop, one set gives the kept observation one notification whose new value
/// is what the getter reads (the links follow the last branch and parts); and once everything
/// is released nothing is left alive (links do not keep inputs or the observation alive).
enum FoundInputsScenarios {
  static var all: [StressScenario] { [inputsRacingRetracking] }

  static let inputsRacingRetracking = StressScenario(
    name: "derived keys found by reading: input sets racing re-tracking and cancellation"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let late = Counter()
    let heard = Counter()
    let rounds = max(1, iterations / 16)
    do {
      let relay = Relay()
      let lastNew = Locked<Int?>(nil)
      let kept = relay.observe(\.reading, options: [.new]) { _, change in
        heard.increment()
        lastNew.withLock { $0 = change.newValue }
      }
      race(workers: 4) { worker in
        switch worker {
        case 0:
          for i in 0..<iterations {
            if i % 2 == 0 { relay.left = i } else { relay.right = i }
          }
        case 1:
          for i in 0..<iterations {
            switch i % 4 {
            case 0: relay.useLeft.toggle()
            case 1: relay.parts = [Relay(), Relay()]
            case 2: relay.parts.first?.left = i
            default: relay.parts = []
            }
          }
        case 2:
          for round in 0..<rounds {
            let ended = Atomic<Bool>(false)
            let token = relay.observe(\.reading, options: [.old, .new, .prior]) { _, _ in
              if ended.load(ordering: .acquiring) { late.increment() }
            }
            if round % 2 == 0 { relay.left = -round }
            token.invalidate()
            ended.store(true, ordering: .releasing)
          }
        default:
          for round in 0..<rounds {
            let own = Locked<ObservationToken?>(nil)
            let token = relay.observe(\.reading) { _, _ in
              // From inside a delivery: must not wait for the delivery it is in.
              own.withLock { $0 }?.invalidate()
            }
            own.withLock { $0 = token }
            relay.right = round
            own.withLock { $0 = nil }
          }
        }
      }
      report.expect("handlers run after invalidate() returned", late.count, 0)
      let before = heard.count
      relay.parts = [Relay()]
      relay.parts[0].left = 7
      relay.useLeft = true
      let settled = heard.count
      relay.left = 5
      report.expect("notifications of the last set", heard.count - settled, 1)
      report.expect("the last new value", lastNew.withLock { $0 }, 12)
      report.expect("notifications of the settling sets", settled - before, 3)
      report.count("notifications", heard.count)
      kept.invalidate()
    }
    report.expect("live objects after release", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
