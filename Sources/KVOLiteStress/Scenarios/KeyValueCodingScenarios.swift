import KVOLiteBridge
import KVOLiteTestSupport
import Synchronization

/// Key-value coding by string while everything around it changes: four threads set and read a
/// depot's keys by string key path (`label`, also set through its property, `count` from text,
/// `keeper.name`, `cartons.2.weight`), set several at once (`setValuesForKeys`), read several at once
/// (`dictionaryWithValues(forKeys:)`), read through collection operators and indexes, replace
/// the `keeper` relationship and the whole `cartons` array, insert and remove cartons
/// (`mutateToMany`), and add and invalidate observers of the same keys.
///
/// Every set by string notifies exactly once: the observers of `label` and `count` get every
/// writer's sets once each, in order. Every value read or delivered is well-formed, and the
/// only errors are indexes that another thread's removal put out of range. Once the threads
/// stop, one set reaches each observer once with exact values; after `invalidate()` returns
/// nothing arrives; and when the depot goes, nothing is left alive (no carton, no replaced
/// keeper, no observation: the handlers capture counted objects).
enum KeyValueCodingScenarios {
  static var all: [StressScenario] { [stringPaths] }

  static let stringPaths = StressScenario(
    name: "key-value coding: string key paths racing sets, observers and structural changes"
  ) { iterations in
    var report = StressReport()
    let baseline = liveObjects.load(ordering: .relaxed)
    do {
      let depot = Depot()
      depot.cartons = (0..<4).map { Carton(weight: $0) }
      let errors = ErrorTally()
      let malformed = Counter()
      let labels = SequenceChecker(sources: 2, expectedPerSource: iterations)
      let counts = SequenceChecker(sources: 2, expectedPerSource: iterations)
      let names = Counter()
      let sums = Counter()
      let lastName = Locked<(old: String?, new: String?)>((nil, nil))
      let lastSum = Locked<Int?>(nil)
      let transientCalls = Counter()
      let late = Counter()
      let captured = Tag(writer: -1, index: -1)
      @Sendable func wellFormed(_ value: Any?) -> Bool {
        guard let text = value as? String else { return false }
        return text.isEmpty || Stamp.parse(text) != nil
      }

      let label = try depot.observe("label", options: [.new]) { change in
        withExtendedLifetime(captured) {}
        guard let text = (change.newValue ?? nil) as? String, let stamp = Stamp.parse(text) else {
          return malformed.increment()
        }
        labels.record(source: stamp.writer, index: stamp.index)
      }
      let count = depot.observe(\.count, options: [.new]) { _, change in
        withExtendedLifetime(captured) {}
        guard let value = change.newValue, value >= 0 else { return malformed.increment() }
        counts.record(source: value % 2, index: value / 2)
      }
      let name = try depot.observe("keeper.name", options: [.old, .new]) { change in
        withExtendedLifetime(captured) {}
        names.increment()
        let (old, new) = (change.oldValue ?? nil, change.newValue ?? nil)
        if !wellFormed(old) || !wellFormed(new) { malformed.increment() }
        lastName.withLock { $0 = (old as? String, new as? String) }
      }
      let sum = try depot.observe("cartons.@sum.weight", options: [.new]) { change in
        withExtendedLifetime(captured) {}
        sums.increment()
        guard let value = (change.newValue ?? nil) as? Int, value >= 0 else {
          return malformed.increment()
        }
        lastSum.withLock { $0 = value }
      }

      race(workers: 4) { worker in
        for index in 0..<iterations {
          let stamp = Stamp.string(writer: worker, index: index)
          switch worker {
          case 0:
            errors.attempt { () throws(KeyValueError) in
              // By string, and through the property (which the string key path must match).
              if index % 2 == 0 {
                try depot.setValue(stamp, forKeyPath: "label")
              } else {
                depot.label = stamp
              }
              try depot.setValue(fromText: "\(index * 2)", forKeyPath: "count")
              if !wellFormed(try depot.value(forKeyPath: "keeper.name")) { malformed.increment() }
            }
          case 1:
            errors.attempt { () throws(KeyValueError) in
              try depot.setValuesForKeys(["label": stamp, "count": index * 2 + 1])
              let values = try depot.dictionaryWithValues(forKeys: ["label", "count", "keeper"])
              if !wellFormed(values["label"]) || !(values["count"] is Int)
                || !(values["keeper"] is Keeper)
              {
                malformed.increment()
              }
            }
          case 2:
            errors.attempt { () throws(KeyValueError) in
              try depot.setValue(stamp, forKeyPath: "keeper.name")
              if index % 8 == 0 { try depot.setValue(Keeper(), forKeyPath: "keeper") }
            }
            errors.attempt { () throws(KeyValueError) in
              try depot.setValue(index, forKeyPath: "cartons.\(index % 4).weight")
            }
          default:
            structuralChange(depot, index, errors, malformed, transient: transientCalls, late)
          }
        }
      }
      report.count("keeper.name notifications", names.count)
      report.count("@sum notifications", sums.count)
      report.count("transient notifications", transientCalls.count)
      report.merge("sets of label by string", labels)
      report.merge("sets of count by string and text", counts)
      report.expect("malformed values", malformed.count, 0)
      report.expect("calls after invalidate() returned", late.count, 0)
      errors.merge(into: &report)

      // Quiet now: one set by string reaches each observer once, with exact values.
      let (namesBefore, sumsBefore) = (names.count, sums.count)
      let oldName = depot.keeper.name
      let finalName = Stamp.string(writer: 9, index: iterations)
      try depot.setValue(finalName, forKeyPath: "keeper.name")
      try depot.mutateToMany(
        .insertion, forKeyPath: "cartons", at: [0], elements: [Carton(weight: 1_000_000)])
      report.expect("keeper.name notifications for one set", names.count - namesBefore, 1)
      report.check(
        "keeper.name delivered old and new", lastName.withLock { $0 == (oldName, finalName) })
      report.expect("@sum notifications for one set", sums.count - sumsBefore, 1)
      report.expect(
        "@sum delivered the sum read by string", lastSum.withLock { $0 },
        try depot.value(forKeyPath: "cartons.@sum.weight") as? Int)
      for token in [label, count, name, sum] { token.invalidate() }
      let labelsBefore = labels.summary.total
      try depot.setValue("after", forKeyPath: "label")
      report.expect("label notifications after invalidate()", labels.summary.total, labelsBefore)
      report.expect("observations left on the depot", depot.observationRegistrar.triggerCount, 0)
    } catch {
      report.failures.append("unexpected error: \(error)")
    }
    report.expect("objects left alive", liveObjects.load(ordering: .relaxed), baseline)
    return report
  }

  /// The fourth thread's step `index`: inserts and removes cartons by string, replaces them all
  /// now and then, reads through operators and an index, and observes keys of the depot for a
  /// moment (an observer must not be called once its `invalidate()` has returned).
  static func structuralChange(
    _ depot: Depot, _ index: Int, _ errors: ErrorTally, _ malformed: Counter,
    transient: Counter, _ late: Counter
  ) {
    errors.attempt { () throws(KeyValueError) in
      switch index % 4 {
      case 0:
        let carton = Carton(title: Stamp.string(writer: 3, index: index))
        try depot.mutateToMany(.insertion, forKeyPath: "cartons", at: [0], elements: [carton])
      case 1:
        try depot.mutateToMany(.removal, forKeyPath: "cartons", at: [0])
      case 2:
        let sum = try depot.value(forKeyPath: "cartons.@sum.weight")
        let count = try depot.value(forKeyPath: "cartons.@count")
        let title = try depot.value(forKeyPath: "cartons.2.title")
        guard sum is Int, count is Int, let title = title as? String,
          title.isEmpty || Stamp.parse(title) != nil
        else { return malformed.increment() }
      default:
        if index % 64 == 3 {
          try depot.setValue([Carton(), Carton(), Carton()], forKeyPath: "cartons")
        }
        let ended = Atomic<Bool>(false)
        let handler: (KeyValueChange<Any?>) -> Void = { _ in
          if ended.load(ordering: .acquiring) { late.increment() }
          transient.increment()
        }
        let path = index % 8 == 3 ? "label" : "cartons.@count"
        let token = try depot.observe(
          path, options: index % 16 == 3 ? [.prior] : [.new], changeHandler: handler)
        spin(index % 5 * 100)
        token.invalidate()
        ended.store(true, ordering: .releasing)
      }
    }
  }
}
