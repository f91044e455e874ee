import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// The first use of a class from several threads at once: finding its keys, checking its
/// declarations, and resolving typed key paths by probing, raced against each other and
/// against sets, for a base class and its subclass never used before (see ``FreshClasses``).
/// Every thread must see the same keys, every observation must get every set, and nothing is
/// left alive.
enum DeclarationScenarios {
  static var all: [StressScenario] { [firstUseOfFreshClasses] }

  static let workers = 4

  static let firstUseOfFreshClasses = StressScenario(
    name: "declarations: first use of a class, from several threads at once"
  ) { iterations in
    var report = StressReport()
    let rounds = max(4, min(2_000, iterations / 250))
    let round = Round()
    for number in 0..<rounds { FreshClasses.visit(number, round) }
    report.count("rounds", rounds)
    report.count("notifications", round.notifications.count)
    report.expect("notifications missed or extra", round.missed.count, 0)
    report.expect("distinct key lists (base, subclass)", round.keyLists.withLock { $0.count }, 2)
    return report
  }

  /// One round: two objects of each class, one per thread, each thread starting on another
  /// entry point (typed key paths, string key paths, key-value coding, the key list) while
  /// the others set.
  final class Round: FreshClassVisitor, Sendable {
    let sets = 50
    let keyLists = Mutex<Set<[String]>>([])
    let missed = Counter()
    let notifications = Counter()

    func visit<Tag>(_ base: Vessel<Tag>.Type, _ subclass: Barge<Tag>.Type) {
      let objects = [Vessel<Tag>(), Barge<Tag>(), Vessel<Tag>(), Barge<Tag>()]
      race(workers: DeclarationScenarios.workers) { worker in
        let object = objects[worker]
        let counter = Counter()
        let (tokens, others) = self.observe(object, entry: worker, counter: counter)
        let keys = type(of: object).allObservableKeys.keys.map(\.name)
        self.keyLists.withLock { _ = $0.insert(keys) }
        for value in 1...self.sets { object.load = value }
        let expected = self.sets * tokens.count
        if counter.count != expected { self.missed.add(abs(expected - counter.count)) }
        self.notifications.add(counter.count)
        for token in tokens + others { token.invalidate() }
      }
    }

    /// Observations of `object`'s `load` (directly, and through the derived `double`) that
    /// count into `counter`, and others that do not fire, registered the way `entry` says.
    private func observe<Tag>(_ object: Vessel<Tag>, entry: Int, counter: Counter)
      -> (counted: [ObservationToken], others: [ObservationToken])
    {
      switch entry {
      case 0:
        return (
          [
            object.observe(\.load) { _, _ in counter.increment() },
            object.observe(\.double) { _, _ in counter.increment() },
          ], []
        )
      case 1:
        let barge = object as! Barge<Tag>
        return (
          [
            barge.observe(\.load) { _, _ in counter.increment() },
            barge.observe(\.double) { _, _ in counter.increment() },
            try! barge.observe("double") { _ in counter.increment() },
          ], []
        )
      case 2:
        _ = try! object.value(forKeyPath: "cargo.@count")
        try! object.setValue(0, forKey: "load")
        return ([try! object.observe("load") { _ in counter.increment() }], [])
      default:
        return (
          [object.observe(\.double) { _, _ in counter.increment() }],
          [try! object.observe("escort.weight") { _ in counter.increment() }]
        )
      }
    }
  }
}
