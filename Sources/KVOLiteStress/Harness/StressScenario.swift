/// One stress scenario: threads that use KVOLite at once, counting every event they see, and
/// the checks that the counts must pass.
struct StressScenario: Sendable {
  /// What the scenario exercises, e.g. "values: String".
  let name: String
  /// Runs the scenario with `iterations` operations per thread and reports what it saw.
  let body: @Sendable (_ iterations: Int) -> StressReport

  /// Runs the scenario.
  func run(iterations: Int) -> StressReport { body(iterations) }
}

/// What a scenario counted, and every check it failed.
struct StressReport: Sendable {
  /// Events counted, for the log: `("notifications", 4_000_000)`.
  var counts: [(String, Int)] = []
  /// One line per failed check; empty when the scenario passed.
  var failures: [String] = []

  var passed: Bool { failures.isEmpty }

  /// Records `count` under `name`.
  mutating func count(_ name: String, _ count: Int) {
    counts.append((name, count))
  }

  /// Checks that `actual` equals `expected`, recording a failure named `what` otherwise.
  mutating func expect<T: Equatable>(_ what: String, _ actual: T, _ expected: T) {
    if actual != expected { failures.append("\(what): \(actual), expected \(expected)") }
  }

  /// Records a failure named `what` unless `condition` holds.
  mutating func check(_ what: String, _ condition: Bool) {
    if !condition { failures.append(what) }
  }

  /// Adds the failures `sequences` found (lost, duplicated or out-of-order events) and its
  /// total count.
  mutating func merge(_ name: String, _ sequences: SequenceChecker) {
    let (total, problems) = sequences.summary
    count(name, total)
    failures += problems.map { "\(name): \($0)" }
  }
}
