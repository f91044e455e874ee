import KVOLiteTestSupport

/// A simulated caller for ``InterleavingExplorer``, written as a list of atomic steps that may
/// add steps after themselves (a send adds one offer per conduit it got): each step is a
/// transition made under a lock, or an action performed after unlocking, and may wait until a
/// condition holds (a simulated lock that another caller holds).
final class ScriptedCaller {
  /// One atomic step: it runs once `canRun` holds.
  struct Step {
    var canRun: () -> Bool
    var run: () -> Void
  }

  let name: String
  private var steps: [Step] = []
  private var next = 0

  init(_ name: String) { self.name = name }

  /// Adds a step at the end.
  func then(when canRun: @autoclosure @escaping () -> Bool = true, _ run: @escaping () -> Void) {
    steps.append(Step(canRun: canRun, run: run))
  }

  /// Adds steps to run right after the step that is running (in the order given).
  func thenNext(_ added: [Step]) {
    steps.insert(contentsOf: added, at: next + 1)
  }

  /// The caller the explorer runs.
  var caller: InterleavingExplorer.Caller {
    InterleavingExplorer.Caller(
      name,
      canRun: { [self] in next >= steps.count || steps[next].canRun() },
      step: { [self] in
        guard next < steps.count else { return false }
        steps[next].run()
        next += 1
        return next < steps.count
      })
  }
}

/// A simulated recursive lock held by a caller (by name) across steps, for the explorer.
final class SimulatedLock {
  private(set) var owner: String?
  private var depth = 0

  /// Whether `caller` can take it now (it is free, or `caller` holds it).
  func canTake(_ caller: String) -> Bool { owner == nil || owner == caller }

  func take(_ caller: String) {
    if !canTake(caller) { fatalError("\(caller) took a lock \(owner ?? "") holds") }
    owner = caller
    depth += 1
  }

  func release(_ caller: String) {
    if owner != caller { fatalError("\(caller) released a lock it does not hold") }
    depth -= 1
    if depth == 0 { owner = nil }
  }
}
