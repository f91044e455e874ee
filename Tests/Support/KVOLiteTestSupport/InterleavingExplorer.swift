/// Runs every interleaving of a few simulated callers of one state machine, on one thread, and
/// checks invariants after each step and at the end: a deterministic search of the schedules
/// that real threads would visit only by chance.
///
/// A scenario is made afresh for each interleaving by `setUp`: the world (the machine and what
/// its callers observe, usually one class instance that the callers' closures share) and its
/// callers. A caller is a sequence of atomic steps — a transition under the lock, or an action
/// performed after unlocking — run one per call of its `step` closure until that returns
/// `false` (it had no step left). A caller whose `canRun` is false waits (it is parked on a
/// lock or a gate); if every caller that is left waits, the schedule deadlocked, and that is a
/// failure.
///
/// The search is depth first over the choice of which caller runs next, replaying a schedule's
/// prefix from a fresh world each time (nothing is copied or undone), so the steps may do
/// anything a test can check, and a caller's next step may depend on what happened before.
/// It stops at the first failure, or after `limit` interleavings.
public enum InterleavingExplorer {
  /// One simulated caller.
  public struct Caller {
    /// The caller's name, used in the schedule a failure reports.
    public var name: String
    /// Whether its next step can run now (false while it waits).
    public var canRun: () -> Bool
    /// Runs its next step; returns whether it has more.
    public var step: () -> Bool

    /// A caller named `name` whose steps `step` runs, one per call, while it returns `true`.
    public init(
      _ name: String, canRun: @escaping () -> Bool = { true }, step: @escaping () -> Bool
    ) {
      self.name = name
      self.canRun = canRun
      self.step = step
    }

    /// A caller that runs `steps` in order, one per step.
    public init(_ name: String, steps: [() -> Void]) {
      var next = 0
      self.init(name) {
        steps[next]()
        next += 1
        return next < steps.count
      }
    }
  }

  /// What a search found.
  public struct Report: Sendable, CustomStringConvertible {
    /// The interleavings run to their end.
    public var interleavings: Int
    /// Whether the search stopped at its limit before running every interleaving.
    public var truncated: Bool
    /// The first failure: the broken invariant's message and the schedule that broke it (the
    /// callers' names, one per step).
    public var failure: (message: String, schedule: [String])?

    /// The failure, or the count of interleavings.
    public var description: String {
      guard let failure else {
        return "\(interleavings) interleavings\(truncated ? " (truncated)" : "")"
      }
      return "\(failure.message) after \(failure.schedule.joined(separator: ", "))"
    }
  }

  /// Explores the interleavings of the callers `setUp` makes. `invariant` is checked after
  /// every step and `atEnd` once every caller is done; each returns `nil` when it holds, or
  /// what is wrong.
  public static func explore<World>(
    limit: Int = 200_000,
    setUp: () -> (world: World, callers: [Caller]),
    invariant: (World) -> String? = { _ in nil },
    atEnd: (World) -> String? = { _ in nil }
  ) -> Report {
    var prefix: [Int] = []
    var report = Report(interleavings: 0, truncated: false, failure: nil)
    while true {
      let (world, callers) = setUp()
      var waiting = Array(callers.indices)
      var choices: [(chosen: Int, options: Int)] = []
      var schedule: [String] = []
      func fail(_ message: String) -> Report {
        report.failure = (message, schedule)
        return report
      }
      while !waiting.isEmpty {
        let ready = waiting.filter { callers[$0].canRun() }
        if ready.isEmpty {
          return fail("deadlock: " + waiting.map { callers[$0].name }.joined(separator: ", "))
        }
        let chosen = choices.count < prefix.count ? prefix[choices.count] : 0
        choices.append((chosen, ready.count))
        let caller = ready[chosen]
        schedule.append(callers[caller].name)
        if !callers[caller].step() { waiting.removeAll { $0 == caller } }
        if let broken = invariant(world) { return fail(broken) }
      }
      if let broken = atEnd(world) { return fail(broken) }
      report.interleavings += 1
      while let last = choices.last, last.chosen + 1 >= last.options { choices.removeLast() }
      guard !choices.isEmpty else { return report }
      if report.interleavings >= limit {
        report.truncated = true
        return report
      }
      prefix = choices.map(\.chosen)
      prefix[prefix.count - 1] += 1
    }
  }
}
