import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// Observations under concurrent sets: prior notifications, observers that come and go, and
/// tokens racing the release of the object they observe.
enum ObservationScenarios {
  static var all: [StressScenario] {
    [prior, observeAndCancel, tokensRacingDeinit, invalidatedTwiceAtOnce]
  }

  /// Two threads set a key with a `.prior` observer and a plain one: every set gives one prior
  /// and one post notification to the first, one post to the second, each writer's in order.
  static let prior = StressScenario(name: "observing: .prior under concurrent sets") {
    iterations in
    var report = StressReport()
    let writers = 2
    let contact = Contact()
    let priors = Counter()
    let malformed = Counter()
    let posts = SequenceChecker(sources: writers, expectedPerSource: iterations)
    let plain = SequenceChecker(sources: writers, expectedPerSource: iterations)
    let token = contact.observe(\.name, options: [.prior, .old, .new]) { _, change in
      guard let old = change.oldValue, old.isEmpty || Stamp.parse(old) != nil else {
        return malformed.increment()
      }
      if change.isPrior { return priors.increment() }
      guard let new = change.newValue.flatMap(Stamp.parse) else { return malformed.increment() }
      posts.record(source: new.writer, index: new.index)
    }
    let second = contact.observe(\.name, options: [.new]) { _, change in
      guard let new = change.newValue.flatMap(Stamp.parse) else { return malformed.increment() }
      plain.record(source: new.writer, index: new.index)
    }
    race(workers: writers) { worker in
      for index in 0..<iterations { contact.name = Stamp.string(writer: worker, index: index) }
    }
    token.invalidate()
    second.invalidate()
    report.expect("prior notifications", priors.count, writers * iterations)
    report.expect("malformed values", malformed.count, 0)
    report.merge("post notifications", posts)
    report.merge("plain observer", plain)
    return report
  }

  /// Two threads set while two observe and invalidate in a loop. A standing observer gets
  /// every set; a transient one is never called after its `invalidate()` returns; nothing a
  /// handler captured outlives its token.
  static let observeAndCancel = StressScenario(name: "observing: observe and cancel while setting")
  { iterations in
    var report = StressReport()
    let contact = Contact()
    let baseline = liveObjects.load(ordering: .relaxed)
    let standing = SequenceChecker(sources: 2, expectedPerSource: iterations)
    let late = Counter()
    let transientCalls = Counter()
    let token = contact.observe(\.name, options: [.new]) { _, change in
      guard let new = change.newValue.flatMap(Stamp.parse) else { return }
      standing.record(source: new.writer, index: new.index)
    }
    race(workers: 4) { worker in
      if worker < 2 {
        for index in 0..<iterations { contact.name = Stamp.string(writer: worker, index: index) }
        return
      }
      for round in 0..<iterations / 8 {
        let ended = Atomic<Bool>(false)
        let captured = Tag(writer: worker, index: round)
        let options: ObservingOptions = round % 2 == 0 ? [.new] : [.prior, .old]
        let transient = contact.observe(\.name, options: options) { _, _ in
          withExtendedLifetime(captured) {}
          if ended.load(ordering: .acquiring) { late.increment() }
          transientCalls.increment()
        }
        if round % 3 == 0 { contact.nickname = "\(round)" }
        transient.invalidate()
        ended.store(true, ordering: .releasing)
      }
    }
    token.invalidate()
    report.merge("standing observer", standing)
    report.count("transient notifications", transientCalls.count)
    report.expect("calls after invalidate() returned", late.count, 0)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }

  /// One thread makes objects, observes them and hands the tokens over; another invalidates
  /// the tokens while the first sets and releases the objects: tokens race the objects'
  /// deinits. Every object and every captured value must be released, and nothing may be
  /// delivered for an object after its token was invalidated.
  static let tokensRacingDeinit = StressScenario(name: "observing: tokens racing deinit") {
    iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let handoff = Locked<[ObservationToken]>([])
    let done = Atomic<Bool>(false)
    let delivered = Counter()
    let rounds = iterations / 4
    race(workers: 2) { worker in
      if worker == 0 {
        for round in 0..<rounds {
          let contact = Contact()
          let captured = Tag(writer: 0, index: round)
          let direct = contact.observe(\.name, options: [.old, .new]) { _, _ in
            withExtendedLifetime(captured) {}
            delivered.increment()
          }
          let chain = contact.observe(\.address.street, options: [.prior, .new]) { _, _ in
            delivered.increment()
          }
          handoff.withLock { $0 += [direct, chain] }
          contact.name = Stamp.string(writer: 0, index: round)
          contact.address.street = Stamp.string(writer: 0, index: round)
        }
        done.store(true, ordering: .releasing)
      } else {
        while true {
          let tokens = handoff.withLock { tokens in
            defer { tokens = [] }
            return tokens
          }
          for token in tokens { token.invalidate() }
          if tokens.isEmpty, done.load(ordering: .acquiring) {
            if handoff.withLock({ $0.isEmpty }) { break }
          }
        }
      }
    }
    report.count("notifications", delivered.count)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }

  /// Two threads set while two others invalidate the same token at once, round after round,
  /// while its handler runs: neither `invalidate()` returns while the handler runs on another
  /// thread, and the handler is never called after either returned.
  static let invalidatedTwiceAtOnce = StressScenario(
    name: "observing: one token invalidated from two threads at once while it delivers"
  ) { iterations in
    var report = StressReport()
    let contact = Contact()
    let baseline = liveObjects.load(ordering: .relaxed)
    /// What one round's handler is doing.
    final class Round: Sendable {
      let running = Atomic<Int>(0)
      let ended = Atomic<Bool>(false)
    }
    let handoff = Locked<(round: Round, token: ObservationToken)?>(nil)
    let meet = RoundBarrier(count: 2)
    let stop = Atomic<Bool>(false)
    let returnedWhileRunning = Counter()
    let late = Counter()
    let calls = Counter()
    race(workers: 4) { worker in
      if worker < 2 {
        var index = 0
        while !stop.load(ordering: .acquiring) {
          contact.name = Stamp.string(writer: worker, index: index)
          index += 1
        }
        return
      }
      for index in 0..<max(4, iterations / 250) {
        if worker == 2 {
          let captured = Tag(writer: worker, index: index)
          let round = Round()
          let token = contact.observe(\.name) { _, _ in
            round.running.add(1, ordering: .acquiringAndReleasing)
            if round.ended.load(ordering: .acquiring) { late.increment() }
            withExtendedLifetime(captured) { spin(200) }
            calls.increment()
            round.running.subtract(1, ordering: .acquiringAndReleasing)
          }
          handoff.withLock { $0 = (round, token) }
        }
        meet.arriveAndWait()
        let (round, token) = handoff.withLock { $0 }!
        meet.arriveAndWait()
        token.invalidate()
        round.ended.store(true, ordering: .releasing)
        if round.running.load(ordering: .acquiring) != 0 { returnedWhileRunning.increment() }
        meet.arriveAndWait()
        if worker == 2 { handoff.withLock { $0 = nil } }
        meet.arriveAndWait()
      }
      if worker == 2 { stop.store(true, ordering: .releasing) }
    }
    report.count("notifications", calls.count)
    report.expect("invalidate() returned while the handler ran", returnedWhileRunning.count, 0)
    report.expect("calls after invalidate() returned", late.count, 0)
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }
}
