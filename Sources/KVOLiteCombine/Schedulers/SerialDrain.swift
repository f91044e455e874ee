import KVOLiteLocking

/// One subscription's serial drain: its scheduled actions run one at a time, in the order they
/// were scheduled, each no earlier than its scheduler ran it — on any scheduler, a concurrent
/// `DispatchQueue` or an `OperationQueue` running several operations at once included. The
/// storage of a ``DrainStateMachine`` behind a lock; the actions run after unlocking.
///
/// The operators that hop schedulers (`receive(on:)`, `delay`, `timeout`, `subscribe(on:)`,
/// `debounce`, `throttle`, `collect(.byTime…)`) make the scheduler calls Combine makes, one per
/// event, and hand each action's work to their drain: an event's place is taken when its action
/// is scheduled (``reserve()``), on the thread that schedules it, and the action fills it when
/// the scheduler runs it (``run(_:_:)``); a timer's action takes its place when it runs
/// (``run(_:)``). On a serial scheduler, or one that runs each action at once, every action
/// finds the line empty before it and runs itself, on its own thread, when Combine's would.
/// On a concurrent one, an action that another's run overtook waits in the line, and the thread
/// that drains runs it next: events never overtake each other, and a completion never
/// overtakes a value (Combine, which runs each action where the scheduler runs it, delivers
/// them in whatever order a concurrent scheduler picks, to a subscriber that may then be
/// called on two threads at once).
///
/// Thread-safe. The lock is a leaf: the owner never holds its own lock while calling in, and
/// no action runs with it held.
final class SerialDrain: @unchecked Sendable {
  // @unchecked: the machine is behind `lock`.
  typealias Machine = DrainStateMachine<() -> Void>
  typealias Ticket = Machine.Ticket

  private let lock = Lock()
  private var machine = Machine()

  init() {}

  /// Takes the next place in the line, for an action about to be scheduled.
  func reserve() -> Ticket {
    lock.withLock { machine.reserve() }
  }

  /// The scheduler runs the action that took `ticket`: `action` runs now if its place is at
  /// the front and nobody drains (then the calling thread drains on: the actions behind it
  /// that were already run by the scheduler), later otherwise, on the thread that drains.
  func run(_ ticket: Ticket, _ action: @escaping () -> Void) {
    let me = ThreadIdentity.current
    perform(lock.withLock { machine.fill(ticket, with: action, by: me) }, by: me)
  }

  /// A timer's action runs: `action` takes the last place, and runs as ``run(_:_:)`` says.
  func run(_ action: @escaping () -> Void) {
    let me = ThreadIdentity.current
    perform(lock.withLock { machine.append(action, by: me) }, by: me)
  }

  /// Ends the line: nothing that waits in it runs, nor anything scheduled later (an action
  /// running now goes on). The actions dropped are released after unlocking.
  func end() {
    let dropped = lock.withLock { machine.end() }
    withExtendedLifetime(dropped) {}
  }

  /// Runs what a transition handed over, and drains on while the line's front is ready.
  private func perform(_ next: Machine.Next, by me: ThreadIdentity) {
    var next = next
    while case .run(let action) = next {
      action()
      next = lock.withLock { machine.delivered(by: me) }
    }
    // `.discard`'s action (the line has ended) is released here, after unlocking.
  }
}
