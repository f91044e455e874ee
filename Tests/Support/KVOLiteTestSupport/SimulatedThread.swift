/// A caller for ``InterleavingExplorer`` written as a program: a stack of steps, where a step
/// may push the steps that follow it (a call it makes, run before the rest of its own steps,
/// depth first, as a synchronous call would be).
///
/// Each step is one atomic move of a simulated thread: a transition of a state machine under
/// its lock, or one action performed after unlocking (reading a model, calling a handler,
/// leaving a gate). A step whose `canRun` is false waits (a lock held by another thread, a
/// gate not yet idle).
public final class SimulatedThread {
  /// One step.
  public struct Step {
    /// Whether the step can run now (false while it waits).
    public var canRun: () -> Bool
    /// Runs the step.
    public var run: () -> Void

    /// A step that runs `run`, once `canRun` holds.
    public init(canRun: @escaping () -> Bool = { true }, _ run: @escaping () -> Void) {
      self.canRun = canRun
      self.run = run
    }
  }

  /// The thread's name in a failing schedule.
  public let name: String
  /// Steps left, the next one last.
  private var stack: [Step] = []

  /// A thread that runs `steps`, in order.
  public init(_ name: String, _ steps: [Step] = []) {
    self.name = name
    then(steps)
  }

  /// Makes `steps` the next steps to run, in order, before those already left (called from a
  /// step, they are that step's call).
  public func then(_ steps: [Step]) {
    stack.append(contentsOf: steps.reversed())
  }

  /// ``then(_:)`` for steps given one by one.
  public func then(_ steps: Step...) {
    then(steps)
  }

  /// Whether the thread has steps left.
  public var isDone: Bool { stack.isEmpty }

  /// The thread as the explorer's caller.
  public var caller: InterleavingExplorer.Caller {
    .init(
      name, canRun: { [unowned self] in stack.last?.canRun() ?? true },
      step: { [unowned self] in
        guard let step = stack.popLast() else { return false }
        step.run()
        return !stack.isEmpty
      })
  }
}
