import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// A key of every element observed (`bottles.volume`) while threads set the elements, insert,
/// remove and replace them (so that some element is in the relationship twice), and set the
/// relationship as a whole; tokens end from another thread and from inside a delivery, and the
/// observed object and the observer go away while elements change. Round after round, the
/// changes an observer received must rebuild the model exactly (each change fitting the array
/// rebuilt so far, its old values the ones there), nothing may arrive after `invalidate()`, a
/// token's release or the object's release, and nothing may be left alive.
enum ElementScenarios {
  static var all: [StressScenario] { [elementsAndRelationship, elementsAndLifetimes] }

  /// Operations per thread in one round: a round ends with an exact comparison.
  static let operationsPerRound = 1_000

  /// The rounds and operations per round for `iterations` operations per thread.
  static func rounds(_ iterations: Int) -> (rounds: Int, operations: Int) {
    let operations = min(iterations, operationsPerRound)
    return (max(1, iterations / operations), operations)
  }

  /// One thread's share of the changes: set volumes, or change the relationship.
  static func change(
    _ crate: Crate, _ pool: [Bottle], worker: Int, index: Int, every: Int = 16
  ) {
    switch worker {
    case 0, 1:
      pool[(index + worker) % pool.count].volume = index * 2 + worker
    case 2:
      let bottles = crate.mutableArrayValue(for: \.bottles)
      // Appends of pooled bottles put some bottles in the relationship twice.
      if index % 2 == 0 {
        bottles.append(pool[index % pool.count])
      } else {
        _ = try? bottles.remove(at: 0)
      }
    default:
      if index % every == 0 {
        crate.bottles = Array(pool.shuffled().prefix(3))
      } else {
        try? crate.mutableArrayValue(for: \.bottles).replace(
          at: index % 2, with: pool[index % pool.count])
      }
    }
  }

  static let elementsAndRelationship = StressScenario(
    name: "to-many: a key of every element, with the relationship changing"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let (rounds, operations) = Self.rounds(iterations)
    var delivered = 0
    for round in 0..<rounds {
      do {
        let crate = Crate()
        let pool = (0..<6).map { _ in Bottle() }
        crate.bottles = [pool[0], pool[1], pool[0]]
        let replay = ToManyReplay<Int>()
        let options: ObservingOptions =
          round % 2 == 0 ? [.initial, .old, .new] : [.initial, .prior, .old, .new]
        let token = try crate.observe("bottles.volume", options: options) { replay.apply($0) }
        // One observer ended from another thread, one from inside its own delivery.
        let other = EndingObserver()
        other.token = try crate.observe("bottles.volume") { [weak other] _ in other?.delivered() }
        let inside = EndingObserver(endsInside: 10)
        inside.token = try crate.observe("bottles.volume", options: [.new]) { [weak inside] _ in
          inside?.delivered()
        }
        race(workers: 4) { worker in
          for index in 0..<operations {
            if worker == 3, index == operations / 2 { other.end() }
            change(crate, pool, worker: worker, index: index)
          }
        }
        delivered += replay.changes
        let name = "round \(round)"
        report.failures += replay.problems.map { "\(name): \($0)" }
        report.expect(
          "\(name): the values rebuilt", replay.elements, crate.bottles.map(\.volume))
        report.expect("\(name): calls after invalidate() returned", other.late, 0)
        report.expect("\(name): calls after invalidating inside", inside.late, 0)
        token.invalidate()
        let after = replay.changes
        pool[0].volume = -1
        report.expect("\(name): changes after the token ended", replay.changes - after, 0)
        inside.end()
        report.expect(
          "\(name): observations left on the elements",
          pool.map(\.observationRegistrar.triggerCount).reduce(0, +), 0)
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

  /// Elements keep changing while one thread releases an observer's token (its deinit ends
  /// it) and another releases the observed object: nothing arrives after either.
  static let elementsAndLifetimes = StressScenario(
    name: "to-many: a key of every element, racing the release of the observer and the object"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let (rounds, operations) = Self.rounds(iterations)
    let late = Counter()
    let delivered = Counter()
    for _ in 0..<rounds {
      let pool = (0..<6).map { _ in Bottle() }
      let released = Counter()
      let crate = Locked<Crate?>(Crate(released: released))
      let tokenGone = Atomic<Bool>(false)
      let observer = Locked<ObservationToken?>(nil)
      let watcher: ObservationToken?
      do {
        let first = crate.withLock { $0! }
        first.bottles = [pool[0], pool[1], pool[0]]
        observer.withLock {
          $0 = try? first.observe("bottles.volume", options: [.old, .new]) { _ in
            delivered.increment()
            if tokenGone.load(ordering: .acquiring) { late.increment() }
          }
        }
        watcher = try? first.observe("bottles.volume", options: [.prior, .new]) { _ in
          delivered.increment()
          if released.count > 0 { late.increment() }
        }
      }
      race(workers: 4) { worker in
        for index in 0..<operations {
          switch worker {
          case 2:
            // The observer's token is released (its deinit invalidates it) at a random time.
            if index == operations / 3 {
              _ = observer.withLock { $0.take() }
              tokenGone.store(true, ordering: .releasing)
            }
            fallthrough
          case 3:
            // The object is released at a random time; its changes stop with it.
            if worker == 3, index == operations / 2 { crate.withLock { $0 = nil } }
            guard let crate = crate.withLock({ $0 }) else { continue }
            change(crate, pool, worker: worker, index: index)
          default:
            pool[(index + worker) % pool.count].volume = index
          }
        }
      }
      // Released: the next element change ends what is left of the observation.
      pool[0].volume = -1
      withExtendedLifetime(watcher) {}
      if report.failures.count > 20 { break }
    }
    report.count("rounds", rounds)
    report.count("changes delivered", delivered.count)
    report.expect("calls after a release", late.count, 0)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}

/// An observer whose token ends from another thread (``end()``) or inside its own delivery,
/// counting the calls that arrive after. Its handler captures it weakly: it keeps the token,
/// and a token keeps its handler until released (a strong capture is a cycle, which the leak
/// sanitizer reports).
final class EndingObserver: @unchecked Sendable {
  // @unchecked: `token` is set before any delivery can call; the rest is atomic or locked.
  var token: ObservationToken?
  private let endsInside: Int?
  private let calls = Atomic<Int>(0)
  private let ended = Atomic<Bool>(false)
  private let lateCalls = Atomic<Int>(0)

  /// An observer ended by ``end()``, or inside its `endsInside`th delivery.
  init(endsInside: Int? = nil) {
    self.endsInside = endsInside
  }

  /// Calls after the end.
  var late: Int { lateCalls.load(ordering: .relaxed) }

  /// Called by the handler.
  func delivered() {
    if ended.load(ordering: .acquiring) { lateCalls.add(1, ordering: .relaxed) }
    let count = calls.add(1, ordering: .relaxed).newValue
    if count == endsInside { end() }
  }

  /// Ends the token; calls after this returns are late.
  func end() {
    token?.invalidate()
    ended.store(true, ordering: .releasing)
  }
}
