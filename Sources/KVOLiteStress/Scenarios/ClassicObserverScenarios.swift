import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// A classic observer (``KeyValueObserver``) that counts its calls and the calls that came
/// after its removal returned, and can remove itself from inside its first call or from its
/// `deinit`, as Foundation code does.
final class Watcher: KeyValueObserver, @unchecked Sendable {
  // @unchecked: the mutable state is atomic, or set before the watcher is shared.
  let calls = Counter()
  let late = Counter()
  private let removed = Atomic<Bool>(false)
  private let selfRemoved = Atomic<Bool>(false)
  /// What the watcher removes from inside its first call, or from its `deinit`: the object
  /// (weakly, as Foundation code holds what it observes from its observer) and the key path.
  weak var observed: Depot?
  var observedKeyPath = "label"
  var removesInFirstCall = false
  var removesInDeinit = false
  /// Called with every change, after counting it.
  let onChange: @Sendable (KeyValueChange<Any?>) -> Void

  init(onChange: @escaping @Sendable (KeyValueChange<Any?>) -> Void = { _ in }) {
    self.onChange = onChange
    liveObjects.add(1, ordering: .relaxed)
  }

  deinit {
    if removesInDeinit { observed?.removeObserver(self, forKeyPath: observedKeyPath) }
    liveObjects.subtract(1, ordering: .relaxed)
  }

  /// Marks that a removal of this watcher returned (outside any delivery): a call after this
  /// is late.
  func markRemoved() { removed.store(true, ordering: .releasing) }

  func observeValue(
    forKeyPath keyPath: String, of object: any KeyValueObservable, change: KeyValueChange<Any?>,
    context: UnsafeMutableRawPointer?
  ) {
    if removed.load(ordering: .acquiring) { late.increment() }
    calls.increment()
    if removesInFirstCall, !selfRemoved.exchange(true, ordering: .relaxed) {
      observed?.removeObserver(self, forKeyPath: observedKeyPath)
    }
    onChange(change)
  }
}

/// The classic observer API under concurrency: two threads set a depot's `label` while two
/// add and remove ``Watcher``s: removed by the thread that added them, by another thread, from
/// inside their first notification (the `.initial` one included), from their `deinit` (which
/// may run inside a delivery that held the last reference, or race the deinit of the object
/// they observe, released on another thread), or added twice with one context and removed
/// twice. A standing observer gets every set once, in each writer's order; no
/// watcher is called after a removal returned (outside a delivery); once the threads stop, the
/// depot holds exactly the standing registrations; and nothing is left alive.
enum ClassicObserverScenarios {
  static var all: [StressScenario] { [addAndRemove] }

  /// What the third thread hands the fourth: watchers to remove, and watchers of objects of
  /// their own to let go of.
  final class Handoffs: Sendable {
    let removals = Locked<[Watcher]>([])
    let temporaries = Locked<[(Depot, Watcher)]>([])

    /// Everything handed over so far.
    func take() -> ([Watcher], [(Depot, Watcher)]) {
      (
        removals.withLock { list in
          defer { list = [] }
          return list
        },
        temporaries.withLock { list in
          defer { list = [] }
          return list
        }
      )
    }
  }

  /// Contexts: addresses that tell registrations apart (never dereferenced).
  nonisolated(unsafe) static let contexts = UnsafeMutablePointer<Int>.allocate(capacity: 2)

  static let addAndRemove = StressScenario(
    name: "classic observers: addObserver and removeObserver racing sets and each other"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    let standingContext = contexts
    do {
      let depot = Depot()
      let labels = SequenceChecker(sources: 2, expectedPerSource: iterations)
      let malformed = Counter()
      let standing = Watcher { change in
        guard let text = (change.newValue ?? nil) as? String, let stamp = Stamp.parse(text) else {
          return malformed.increment()
        }
        // Writer 9 is the set that flushes the watchers still waiting for a first call.
        if stamp.writer != 9 { labels.record(source: stamp.writer, index: stamp.index) }
      }
      try depot.addObserver(
        standing, forKeyPath: "label", options: [.new], context: standingContext)
      let chain = Watcher()
      try depot.addObserver(chain, forKeyPath: "keeper.name", options: [.old, .new])
      let registrations = depot.observationRegistrar.triggerCount
      let handoffs = Handoffs()
      // Watchers that remove themselves in their first call live until it comes.
      let selfRemovers = Locked<[Watcher]>([])
      let done = Atomic<Int>(0)
      let late = Counter()
      let rounds = iterations / 4
      race(workers: 4) { worker in
        switch worker {
        case 0, 1:
          for index in 0..<iterations { depot.label = Stamp.string(writer: worker, index: index) }
        case 2:
          for round in 0..<rounds {
            addAndRemove(round, depot, contexts + 1, handoffs, selfRemovers, late)
          }
          done.store(1, ordering: .releasing)
        default:
          // Removes what the third thread hands over, from this thread, and lets go of the
          // objects it hands over, while replacing the keeper and setting its name.
          var step = 0
          while true {
            let finished = done.load(ordering: .acquiring) == 1
            let (watchers, temporaries) = handoffs.take()
            for watcher in watchers {
              depot.removeObserver(watcher, forKeyPath: "keeper.name")
              watcher.markRemoved()
              late.add(watcher.late.count)
            }
            for (temporary, watcher) in temporaries {
              temporary.keeper.name = Stamp.string(writer: 3, index: step)
              withExtendedLifetime(watcher) {}
            }
            step += 1
            if step % 16 == 0 { depot.keeper = Keeper() }
            depot.keeper.name = Stamp.string(writer: 3, index: step)
            if finished, watchers.isEmpty, temporaries.isEmpty { break }
          }
        }
      }
      // Every watcher that removes itself in its first call gets one now, if it had none.
      depot.label = Stamp.string(writer: 9, index: 0)
      for watcher in selfRemovers.withLock({ $0 }) { late.add(watcher.late.count) }
      selfRemovers.withLock { $0 = [] }
      report.merge("standing observer", labels)
      report.count("keeper.name notifications", chain.calls.count)
      report.expect("malformed values", malformed.count, 0)
      report.expect("calls after removeObserver returned", late.count, 0)
      report.expect(
        "registrations left on the depot", depot.observationRegistrar.triggerCount, registrations)
      depot.removeObserver(standing, forKeyPath: "label", context: standingContext)
      depot.removeObserver(chain, forKeyPath: "keeper.name")
      report.expect(
        "registrations after the last removal", depot.observationRegistrar.triggerCount, 0)
      let calls = standing.calls.count
      depot.label = "after"
      report.expect("calls after the standing observer's removal", standing.calls.count, calls)
    } catch {
      report.failures.append("unexpected error: \(error)")
    }
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }

  /// Round `round` of the third thread: one watcher, added and removed one of six ways.
  static func addAndRemove(
    _ round: Int, _ depot: Depot, _ context: UnsafeMutablePointer<Int>,
    _ handoffs: Handoffs, _ selfRemovers: Locked<[Watcher]>, _ late: Counter
  ) {
    let watcher = Watcher()
    do {
      switch round % 6 {
      case 0:
        // Added and removed here, with its context.
        try depot.addObserver(
          watcher, forKeyPath: "label", options: [.new, .prior], context: context)
        spin(round % 7 * 50)
        depot.removeObserver(watcher, forKeyPath: "label", context: context)
        watcher.markRemoved()
      case 1:
        // Added twice with one context: one removal leaves one registration.
        try depot.addObserver(watcher, forKeyPath: "label", options: [.new], context: context)
        try depot.addObserver(watcher, forKeyPath: "label", options: [.old], context: context)
        depot.removeObserver(watcher, forKeyPath: "label", context: context)
        spin(round % 7 * 50)
        depot.removeObserver(watcher, forKeyPath: "label")
        watcher.markRemoved()
      case 2:
        // Removes itself from inside its first notification, on whichever thread makes it.
        watcher.observed = depot
        watcher.removesInFirstCall = true
        selfRemovers.withLock { $0.append(watcher) }
        try depot.addObserver(watcher, forKeyPath: "label", options: [.new])
      case 3:
        // Removes itself from inside its `.initial` notification, in addObserver.
        watcher.observed = depot
        watcher.removesInFirstCall = true
        try depot.addObserver(watcher, forKeyPath: "label", options: [.initial, .new])
      case 4:
        // Removed by another thread.
        try depot.addObserver(watcher, forKeyPath: "keeper.name", options: [.new])
        handoffs.removals.withLock { $0.append(watcher) }
      default:
        // Removes itself in its deinit, which runs on whichever thread lets go of it last
        // (a delivery holds it while it is called)...
        watcher.removesInDeinit = true
        if round % 12 == 5 {
          watcher.observed = depot
          try depot.addObserver(watcher, forKeyPath: "label", options: [.new])
        } else {
          // ...from an object of its own, which the fourth thread sets and both threads let
          // go of at once: the object's deinit races the watcher's.
          let temporary = Depot()
          watcher.observed = temporary
          watcher.observedKeyPath = "keeper.name"
          try temporary.addObserver(watcher, forKeyPath: "keeper.name", options: [.new])
          handoffs.temporaries.withLock { $0.append((temporary, watcher)) }
        }
      }
    } catch {
      fatalError("kvolite-stress: addObserver failed: \(error)")
    }
    late.add(watcher.late.count)
  }
}
