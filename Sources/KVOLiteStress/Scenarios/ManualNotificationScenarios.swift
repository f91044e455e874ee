import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// Manual notification on several threads at once for one key: three threads run
/// `willChangeValue`/`didChangeValue` pairs for a gauge's `level` (one pair in four nested in
/// another, by key path and by name) and `willChange(_:valuesAt:for:)`/`didChange` pairs for a
/// replacement in its to-many `readings`, while a fourth adds observers of both keys and ends
/// them: by `invalidate()`, by releasing the token, or from inside their own prior
/// notification; and runs pairs on gauges of its own, whose observations the first thread
/// invalidates while the fourth lets go of the gauges.
///
/// Each pair delivers on its thread, at its calls: every `will` gives each standing observer
/// exactly one prior notification before it returns, every `did` exactly one post
/// notification, with well-formed values (a replacement's kind, index and elements included).
/// A transient observer is never called after its `invalidate()` returned, nor on the thread
/// that invalidated it from inside a notification. Once the threads stop, only the standing
/// observers are left, and nothing is left alive.
enum ManualNotificationScenarios {
  static var all: [StressScenario] { [pairsOnSeveralThreads] }

  static let pairThreads = 3

  /// The kinds of event the standing observers count per thread.
  enum Event: Int {
    case levelPrior, levelPost, readingsPrior, readingsPost
  }

  static let pairsOnSeveralThreads = StressScenario(
    name: "manual notification: will/did pairs on several threads for one key"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    do {
      let gauge = Gauge(readings: pairThreads)
      let tally = ThreadTally(kinds: 4)
      let malformed = Counter()
      let misdelivered = Counter()
      let pairs = Counter()
      let posts = Counter()
      let transientCalls = Counter()
      let late = Counter()
      func wellFormed(_ value: String?) -> Bool {
        value.map { $0.isEmpty || Stamp.parse($0) != nil } ?? false
      }
      let level = gauge.observe(\.level, options: [.prior, .old, .new]) { _, change in
        if !wellFormed(change.oldValue) { malformed.increment() }
        if change.isPrior { return tally.increment(Event.levelPrior.rawValue) }
        if !wellFormed(change.newValue) { malformed.increment() }
        tally.increment(Event.levelPost.rawValue)
      }
      let byName = try gauge.observe("level", options: [.new]) { _ in posts.increment() }
      let readings = gauge.observe(\.readings, options: [.prior, .old, .new]) { _, change in
        let fits =
          change.kind == .replacement && change.indexes?.count == 1
          && change.oldValue?.count == 1 && change.oldValue.map { wellFormed($0[0]) } == true
          && (change.isPrior ? change.newValue == nil : change.newValue?.count == 1)
        if !fits { malformed.increment() }
        tally.increment((change.isPrior ? Event.readingsPrior : .readingsPost).rawValue)
      }
      let standing = gauge.observationRegistrar.triggerCount

      let handed = Locked<[ObservationToken]>([])
      race(workers: pairThreads + 1) { worker in
        guard worker < pairThreads else {
          var waiting: [Locked<ObservationToken?>] = []
          for round in 0..<iterations / 4 {
            if round % 8 == 7 {
              pairOnATemporaryGauge(round, handed)
            } else if let own = observeForAMoment(gauge, round, transient: transientCalls, late) {
              waiting.append(own)
            }
          }
          // Those that never had a prior notification to end themselves in.
          for own in waiting { own.withLock { $0.take() }?.invalidate() }
          return
        }
        /// Runs `call` and checks that it delivered `expected` more events of each kind on this
        /// thread.
        func expect(_ expected: [Event: Int], _ call: () throws(KeyValueError) -> Void)
          throws(KeyValueError)
        {
          let before = (0..<4).map(tally.count)
          try call()
          for event in [Event.levelPrior, .levelPost, .readingsPrior, .readingsPost]
          where tally.count(event.rawValue) - before[event.rawValue] != expected[event] ?? 0 {
            misdelivered.increment()
          }
        }
        do {
          for index in 0..<iterations {
            let stamp = Stamp.string(writer: worker, index: index)
            if index % 4 == 3 {
              // Nested: two notifications, the inner one first.
              try expect([.levelPrior: 1]) { () throws(KeyValueError) in
                gauge.willChangeValue(for: \.level)
              }
              try expect([.levelPrior: 1]) { () throws(KeyValueError) in
                try gauge.willChangeValue(forKey: "level")
              }
              gauge.level = stamp
              try expect([.levelPost: 1]) { () throws(KeyValueError) in
                try gauge.didChangeValue(forKey: "level")
              }
              try expect([.levelPost: 1]) { () throws(KeyValueError) in
                gauge.didChangeValue(for: \.level)
              }
              pairs.add(2)
            } else {
              try expect([.levelPrior: 1]) { () throws(KeyValueError) in
                gauge.willChangeValue(for: \.level)
              }
              gauge.level = stamp
              try expect([.levelPost: 1]) { () throws(KeyValueError) in
                gauge.didChangeValue(for: \.level)
              }
              pairs.increment()
            }
            if worker == 0, index % 64 == 0 { handed.invalidateAll() }
            if index % 2 == 0 {
              let at: IndexSet = [worker]
              try expect([.readingsPrior: 1]) { () throws(KeyValueError) in
                gauge.willChange(.replacement, valuesAt: at, for: \.readings)
              }
              // Not atomic with the other threads' replacements (a read and a write), but
              // the array keeps its length, which is all the pair needs.
              gauge.readings[worker] = stamp
              try expect([.readingsPost: 1]) { () throws(KeyValueError) in
                gauge.didChange(.replacement, valuesAt: at, for: \.readings)
              }
            }
          }
        } catch {
          malformed.increment()
        }
      }
      handed.invalidateAll()
      report.count("pairs", pairs.count)
      report.count("transient notifications", transientCalls.count)
      report.expect("notifications by name", posts.count, pairs.count)
      report.expect("malformed changes", malformed.count, 0)
      report.expect("calls that did not come at their pair's calls", misdelivered.count, 0)
      report.expect("calls after invalidate() returned", late.count, 0)
      report.expect(
        "observations left besides the standing ones", gauge.observationRegistrar.triggerCount,
        standing)

      // Quiet now: one pair, one prior and one post.
      let before = (0..<4).map(tally.count)
      gauge.willChangeValue(for: \.level)
      gauge.level = Stamp.string(writer: 9, index: 0)
      gauge.didChangeValue(for: \.level)
      report.expect(
        "notifications of one quiet pair", (0..<4).map { tally.count($0) - before[$0] },
        [1, 1, 0, 0])
      for token in [level, byName, readings] { token.invalidate() }
      report.expect("observations left", gauge.observationRegistrar.triggerCount, 0)
    } catch {
      report.failures.append("unexpected error: \(error)")
    }
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }

  /// One round in eight of the fourth thread: pairs on a gauge of its own, whose observations
  /// the first thread invalidates meanwhile; then the gauge is let go of, its deinit racing the
  /// invalidations.
  static func pairOnATemporaryGauge(_ round: Int, _ handed: Locked<[ObservationToken]>) {
    let temporary = Gauge(readings: 1)
    let captured = Tag(writer: 3, index: round)
    do {
      let tokens = [
        temporary.observe(\.level, options: [.prior, .old, .new]) { _, _ in
          withExtendedLifetime(captured) {}
        },
        temporary.observe(\.readings, options: [.prior, .new]) { _, _ in
          withExtendedLifetime(captured) {}
        },
      ]
      handed.withLock { $0 += tokens }
    }
    for step in 0..<4 {
      temporary.willChangeValue(for: \.level)
      temporary.level = Stamp.string(writer: 3, index: round + step)
      temporary.didChangeValue(for: \.level)
      temporary.willChange(.replacement, valuesAt: [0], for: \.readings)
      temporary.readings = [Stamp.string(writer: 3, index: round + step)]
      temporary.didChange(.replacement, valuesAt: [0], for: \.readings)
    }
  }

  /// The fourth thread's round `round`: an observer of `level` or `readings` that lives for a
  /// moment. It ends by `invalidate()` (then it must not be called after it returned), by the
  /// release of its token, or from inside its first prior notification (then it must not be
  /// called again on that thread).
  static func observeForAMoment(
    _ gauge: Gauge, _ round: Int, transient: Counter, _ late: Counter
  ) -> Locked<ObservationToken?>? {
    let ended = Atomic<Bool>(false)
    let invalidatedOn = Atomic<UInt>(0)
    let token = Locked<ObservationToken?>(nil)
    let captured = Tag(writer: 3, index: round)
    let selfEnding = round % 3 == 2
    let handler: @Sendable (Bool) -> Void = { isPrior in
      withExtendedLifetime(captured) {}
      transient.increment()
      if ended.load(ordering: .acquiring) || invalidatedOn.load(ordering: .acquiring) == threadID()
      {
        late.increment()
      }
      if selfEnding, isPrior, let own = token.withLock({ $0.take() }) {
        own.invalidate()
        invalidatedOn.store(threadID(), ordering: .releasing)
      }
    }
    let options: ObservingOptions = round % 2 == 0 ? [.prior, .old] : [.prior, .new]
    // In a scope of its own, so that the box holds the only reference.
    do {
      let made =
        round % 4 < 2
        ? gauge.observe(\.level, options: options) { _, change in handler(change.isPrior) }
        : gauge.observe(\.readings, options: options) { _, change in handler(change.isPrior) }
      token.withLock { $0 = made }
    }
    spin(round % 5 * 200)
    if selfEnding { return token }
    var own = token.withLock { $0.take() }
    if round % 3 == 0 {
      own?.invalidate()
    } else {
      own = nil  // Released: that invalidates it too.
    }
    ended.store(true, ordering: .releasing)
    return nil
  }
}
