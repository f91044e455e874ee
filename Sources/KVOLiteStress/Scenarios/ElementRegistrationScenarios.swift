import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// Observations that follow elements registered while the elements change: their `.initial`
/// notification waits for the registration to be complete, and the changes heard meanwhile wait
/// for it. Four threads change a crate as ``ElementScenarios`` does (the whole relationship set
/// now and then to fresh bottles, released on whichever thread lets go of them last) while a
/// fifth registers, round after round:
///
/// - `observe([…])` of `bottles.volume`, `bottles.@sum.volume`, `bottles.@count`,
///   `bottles.@avg.volume` and the derived `totalVolume`, with `.initial`: each path's changes,
///   from its `.initial` one, must rebuild the model once the threads stop;
/// - the same paths followed by one that cannot be observed: it throws, nothing is delivered,
///   and nothing is left on the crate or its elements;
/// - `addObserver` of `bottles.volume` with `.initial`, whose changes rebuild the model too;
///   observers that remove themselves inside their `.initial` notification, or inside their
///   third: exactly one, at most three calls; and observers that a sixth thread removes while
///   they are added (before, during or after the registration): none is called after a removal
///   that found it returned (one removed before its registration is still registered, and a
///   last change of the relationship tells them apart).
///
/// Once every observation ends, nothing is left on the crate or its bottles, and nothing is
/// left alive.
enum ElementRegistrationScenarios {
  static var all: [StressScenario] { [registeringWhileElementsChange] }

  static let paths = [
    "bottles.volume", "bottles.@sum.volume", "bottles.@count", "bottles.@avg.volume", "totalVolume",
  ]

  /// Registrations the fifth thread makes per round (each kind in turn).
  static let registrationsPerRound = 12

  /// A classic observer of a crate that replays what it hears, and may remove itself from
  /// inside its `removesAt`th call.
  final class Replayer: KeyValueObserver, @unchecked Sendable {
    // @unchecked: `crate` and `removesAt` are set before the registration.
    let replay = ToManyReplay<Int>()
    let calls = Counter()
    /// Calls after a removal from another thread returned.
    let late = Counter()
    let removed = Atomic<Bool>(false)
    weak var crate: Crate?
    var removesAt: Int?
    var path = "bottles.volume"

    init() { liveObjects.add(1, ordering: .relaxed) }
    deinit { liveObjects.subtract(1, ordering: .relaxed) }

    func observeValue(
      forKeyPath keyPath: String, of object: any KeyValueObservable, change: KeyValueChange<Any?>,
      context: UnsafeMutableRawPointer?
    ) {
      if removed.load(ordering: .acquiring) { late.increment() }
      calls.increment()
      if calls.count == removesAt { crate?.removeObserver(self, forKeyPath: path) }
      replay.apply(change)
    }
  }

  /// What one `observe([…])` registration heard, by path.
  final class Heard: Sendable {
    let elements = ToManyReplay<Int>()
    let tracks = paths.dropFirst().map { _ in ValueTrack<String>() }
    let unknown = Counter()

    func apply(_ path: String, _ change: KeyValueChange<Any?>) {
      guard let index = paths.firstIndex(of: path) else { return unknown.increment() }
      if index == 0 { elements.apply(change) } else { tracks[index - 1].apply(erased: change) }
    }
  }

  /// One change by `worker`: as ``ElementScenarios/change(_:_:worker:index:every:)``, but the
  /// fourth thread sets the relationship to fresh bottles now and then.
  static func change(_ crate: Crate, _ pool: [Bottle], worker: Int, index: Int) {
    if worker == 3, index % 64 == 32 {
      crate.bottles = [Bottle(), pool[index % pool.count], Bottle()]
    } else {
      ElementScenarios.change(crate, pool, worker: worker, index: index)
    }
  }

  static let registeringWhileElementsChange = StressScenario(
    name: "to-many: observe([…]) and addObserver of element paths registered while elements change"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let (rounds, operations) = ElementScenarios.rounds(iterations)
    var delivered = 0
    var registered = 0
    var doomedRemoved = 0
    var doomedMissed = 0
    for round in 0..<rounds {
      let crate = Crate()
      let pool = (0..<6).map { _ in Bottle() }
      crate.bottles = [pool[0], pool[1], pool[0]]
      let options: ObservingOptions =
        round % 2 == 0 ? [.initial, .old, .new] : [.initial, .prior, .old, .new]
      let heard = Locked<[Heard]>([])
      let tokens = Locked<[ObservationToken]>([])
      let replayers = Locked<[Replayer]>([])
      let removers = Locked<[Replayer]>([])
      let failed = Counter()
      let notThrown = Counter()
      let registrationErrors = Locked<[String]>([])
      let progress = Counter()
      let doomed = Locked<[Replayer]>([])
      let allDoomed = Locked<[Replayer]>([])
      let registering = Atomic<Bool>(true)
      race(workers: 6) { worker in
        if worker == 5 {
          // Removes the doomed observers, maybe before their registration, maybe while it runs.
          while registering.load(ordering: .acquiring) || !doomed.withLock({ $0.isEmpty }) {
            let taken = doomed.withLock { list in
              defer { list = [] }
              return list
            }
            for replayer in taken {
              crate.removeObserver(replayer, forKeyPath: "bottles.volume")
              replayer.removed.store(true, ordering: .releasing)
            }
            sched_yield()
          }
          return
        }
        defer { if worker == 4 { registering.store(false, ordering: .releasing) } }
        guard worker == 4 else {
          for index in 0..<operations {
            change(crate, pool, worker: worker, index: index)
            if worker == 0 { progress.increment() }
          }
          return
        }
        for index in 0..<registrationsPerRound {
          // Spread over the changes.
          while progress.count < index * operations / registrationsPerRound { sched_yield() }
          do {
            switch index % 4 {
            case 0:
              let paths = Heard()
              let token = try crate.observe(Self.paths, options: options) { paths.apply($0, $1) }
              heard.withLock { $0.append(paths) }
              tokens.withLock { $0.append(token) }
            case 1:
              do {
                _ = try crate.observe(Self.paths + ["bottles.@nope.volume"], options: options) {
                  _, _ in failed.increment()
                }
                notThrown.increment()
              } catch {}
            case 2:
              let replayer = Replayer()
              replayer.crate = crate
              try crate.addObserver(replayer, forKeyPath: "bottles.volume", options: options)
              replayers.withLock { $0.append(replayer) }
              let doomer = Replayer()
              doomed.withLock { $0.append(doomer) }
              allDoomed.withLock { $0.append(doomer) }
              try crate.addObserver(doomer, forKeyPath: "bottles.volume", options: options)
            default:
              let remover = Replayer()
              remover.crate = crate
              remover.removesAt = index % 8 == 3 ? 1 : 3
              remover.path = index % 8 == 3 ? "bottles.volume" : "totalVolume"
              try crate.addObserver(remover, forKeyPath: remover.path, options: options)
              removers.withLock { $0.append(remover) }
            }
          } catch {
            registrationErrors.withLock { $0.append("\(error)") }
          }
        }
      }
      let name = "round \(round)"
      let volumes = crate.bottles.map(\.volume)
      // The values key-value coding reads, described as the tracks describe them.
      let expected = Self.paths.dropFirst().map { path in
        ((try? crate.value(forKeyPath: path)) ?? nil).map { "\($0)" } ?? "nil"
      }
      for paths in heard.withLock({ $0 }) {
        report.failures += paths.elements.problems.map { "\(name): bottles.volume: \($0)" }
        report.expect("\(name): bottles.volume rebuilt", paths.elements.elements, volumes)
        for (path, (track, value)) in zip(Self.paths.dropFirst(), zip(paths.tracks, expected)) {
          report.failures += track.problems.map { "\(name): \(path): \($0)" }
          report.expect("\(name): \(path)", track.last, value)
        }
        report.expect("\(name): paths it was not given", paths.unknown.count, 0)
        delivered += paths.elements.changes + paths.tracks.map(\.changes).reduce(0, +)
      }
      for replayer in replayers.withLock({ $0 }) {
        report.failures += replayer.replay.problems.map { "\(name): addObserver: \($0)" }
        report.expect("\(name): addObserver rebuilt", replayer.replay.elements, volumes)
        delivered += replayer.calls.count
        crate.removeObserver(replayer, forKeyPath: "bottles.volume")
      }
      for remover in removers.withLock({ $0 }) {
        let calls = remover.calls.count
        // Not called three times yet: removed here.
        crate.removeObserver(remover, forKeyPath: remover.path)
        if remover.removesAt == 1 {
          report.expect("\(name): calls of an observer removed inside .initial", calls, 1)
        } else if calls > 3 || calls < 1 {
          report.failures.append("\(name): an observer removed inside its third call got \(calls)")
        }
      }
      // A doomed observer removed before it was registered is still registered: the probe
      // reaches it. One the removal found gets nothing after it.
      let doomers = allDoomed.withLock { $0 }
      let before = doomers.map(\.calls.count)
      crate.bottles = [pool[0]]
      let missed = zip(doomers, before).filter { $0.calls.count != $1 }.count
      doomedMissed += missed
      doomedRemoved += doomers.count - missed
      for (doomer, calls) in zip(doomers, before) where doomer.calls.count == calls {
        report.expect("\(name): calls after a removal from another thread", doomer.late.count, 0)
      }
      for doomer in doomers { crate.removeObserver(doomer, forKeyPath: "bottles.volume") }
      report.expect("\(name): calls of a failed registration", failed.count, 0)
      report.expect("\(name): a failing path that did not throw", notThrown.count, 0)
      report.expect("\(name): registration errors", registrationErrors.withLock { $0 }, [])
      tokens.invalidateAll()
      registered += registrationsPerRound
      let left =
        (pool + crate.bottles).map(\.observationRegistrar.triggerCount).reduce(0, +)
        + crate.observationRegistrar.triggerCount
      report.expect("\(name): observations left on the crate and its bottles", left, 0)
      if report.failures.count > 20 { break }
    }
    report.count("rounds", rounds)
    report.count("registrations", registered)
    report.count("removed by another thread", doomedRemoved)
    report.count("removed before their registration", doomedMissed)
    report.count("changes delivered", delivered)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
