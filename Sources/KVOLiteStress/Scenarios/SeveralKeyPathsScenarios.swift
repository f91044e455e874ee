import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// One observation of several key paths (``KeyValueObservable/observe(_:options:changeHandler:)``
/// with an array), whose handler is told which path changed, while three threads change each
/// path: a depot's `label`; `keeper.name`, the keeper also replaced now and then; and
/// `cartons.@count`, an append and a removal each step. A fourth thread makes observations of
/// the same paths and ends them: by `invalidate()`, by releasing the token, or from inside the
/// handler (one token ending all its paths at once); and observes depots of its own, whose
/// tokens the first thread invalidates while the fourth lets go of the depots.
///
/// Each thread is the only one changing its path, so the standing observation's counts are
/// exact: every set of `label` once, in order; `keeper.name` once per set of the name and once
/// per replacement of the keeper; `cartons.@count` once per append and once per removal, with
/// the count after it. No handler names a path it was not given; none is called after
/// `invalidate()` returned; once the threads stop, only the standing observation is left on the
/// depot and its keeper, and nothing is left alive.
enum SeveralKeyPathsScenarios {
  static var all: [StressScenario] { [whichPathChanged] }

  static let paths = ["label", "keeper.name", "cartons.@count"]

  static let whichPathChanged = StressScenario(
    name: "observing several key paths: which one changed, while each changes and tokens end"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    do {
      let depot = Depot()
      let labels = SequenceChecker(sources: 1, expectedPerSource: iterations)
      let names = SequenceChecker(sources: 1, expectedPerSource: iterations)
      let replacements = Counter()
      let counts = Counter()
      let malformed = Counter()
      let transientCalls = Counter()
      let late = Counter()
      let token = try depot.observe(paths, options: [.new]) { path, change in
        let new = change.newValue ?? nil
        switch path {
        case "label":
          guard let text = new as? String, let stamp = Stamp.parse(text) else {
            return malformed.increment()
          }
          labels.record(source: 0, index: stamp.index)
        case "keeper.name":
          guard let text = new as? String else { return malformed.increment() }
          guard let stamp = Stamp.parse(text) else {
            return text.isEmpty ? replacements.increment() : malformed.increment()
          }
          names.record(source: 0, index: stamp.index)
        case "cartons.@count":
          // Appends and removals alternate on one thread: 1, 0, 1, 0…
          guard let count = new as? Int, count == 1 - counts.count % 2 else {
            return malformed.increment()
          }
          counts.increment()
        default:
          malformed.increment()
        }
      }
      let standing = (
        depot.observationRegistrar.triggerCount, depot.keeper.observationRegistrar.triggerCount
      )
      let handed = Locked<[ObservationToken]>([])
      race(workers: 4) { worker in
        switch worker {
        case 0:
          for index in 0..<iterations {
            depot.label = Stamp.string(writer: 0, index: index)
            if index % 32 == 0 { handed.invalidateAll() }
          }
        case 1:
          for index in 0..<iterations {
            if index % 8 == 0 { depot.keeper = Keeper() }
            depot.keeper.name = Stamp.string(writer: 1, index: index)
          }
        case 2:
          let cartons = depot.mutableArrayValue(for: \.cartons)
          for _ in 0..<iterations {
            cartons.append(Carton())
            _ = try? cartons.remove(at: 0)
          }
        default:
          for round in 0..<iterations / 8 {
            if round % 4 == 3 {
              observeATemporaryDepot(round, handed, malformed)
            } else {
              observeForAMoment(depot, round, transient: transientCalls, late, malformed)
            }
          }
        }
      }
      handed.invalidateAll()
      report.merge("label", labels)
      report.merge("keeper.name", names)
      report.expect(
        "keeper.name notifications of a new keeper", replacements.count, (iterations + 7) / 8)
      report.expect("cartons.@count notifications", counts.count, 2 * iterations)
      report.count("transient notifications", transientCalls.count)
      report.expect("malformed changes", malformed.count, 0)
      report.expect("calls after invalidate() returned", late.count, 0)
      report.check(
        "only the standing observation is left",
        (depot.observationRegistrar.triggerCount, depot.keeper.observationRegistrar.triggerCount)
          == standing)
      token.invalidate()
      report.expect("observations left on the depot", depot.observationRegistrar.triggerCount, 0)
      report.expect(
        "observations left on the keeper", depot.keeper.observationRegistrar.triggerCount, 0)
    } catch {
      report.failures.append("unexpected error: \(error)")
    }
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }

  /// One round in four of the fourth thread: an observation of a depot of its own, whose
  /// token the first thread invalidates while this one changes every path and lets go of the
  /// depot: the token's end races the depot's deinit.
  static func observeATemporaryDepot(
    _ round: Int, _ handed: Locked<[ObservationToken]>, _ malformed: Counter
  ) {
    let temporary = Depot()
    let captured = Tag(writer: 3, index: round)
    do {
      let token = try temporary.observe(paths, options: [.old, .new]) { path, _ in
        withExtendedLifetime(captured) {}
        if !paths.contains(path) { malformed.increment() }
      }
      handed.withLock { $0.append(token) }
    } catch {
      return malformed.increment()
    }
    temporary.label = Stamp.string(writer: 3, index: round)
    temporary.keeper = Keeper()
    temporary.keeper.name = Stamp.string(writer: 3, index: round)
    temporary.mutableArrayValue(for: \.cartons).append(Carton())
  }

  /// The fourth thread's round `round`: an observation of some of the paths that lives for a
  /// moment, ended by `invalidate()` (nothing may come after it returned), by the release of its
  /// token, or from inside its handler's first call.
  static func observeForAMoment(
    _ depot: Depot, _ round: Int, transient: Counter, _ late: Counter, _ malformed: Counter
  ) {
    let given = round % 2 == 0 ? paths : [paths[round / 2 % 3], "label"]
    let ended = Atomic<Bool>(false)
    let own = Locked<ObservationToken?>(nil)
    let captured = Tag(writer: 3, index: round)
    let selfEnding = round % 3 == 2
    do {
      let token = try depot.observe(given, options: round % 4 == 1 ? [.prior, .old] : [.new]) {
        path, _ in
        withExtendedLifetime(captured) {}
        transient.increment()
        if !given.contains(path) { malformed.increment() }
        if ended.load(ordering: .acquiring) { late.increment() }
        if selfEnding { own.withLock { $0.take() }?.invalidate() }
      }
      own.withLock { $0 = token }
    } catch {
      return malformed.increment()
    }
    spin(round % 5 * 200)
    var token = own.withLock { $0.take() }
    if selfEnding { return withExtendedLifetime(token) {} }  // Released, if it was not ended.
    if round % 3 == 0 {
      token?.invalidate()
    } else {
      token = nil  // Released: that invalidates it too.
    }
    ended.store(true, ordering: .releasing)
  }
}
