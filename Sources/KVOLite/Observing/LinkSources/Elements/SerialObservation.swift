import Foundation
import KVOLiteLocking

/// An observation that follows the elements of to-many relationships (``ElementObservation``,
/// ``AggregateObservation``) and takes the changes it hears of one at a time, in order.
///
/// What it hears of — a relationship changed, an element's key changed, something else the
/// value depends on changed — arrives from other observations, on the threads that made the
/// changes, in any order. So that its handler sees one consistent story, the changes are
/// *reserved* in a queue as they arrive, then taken in turn by one thread at a time:
///
/// - **Reserve, then read.** A change takes its place in the queue first; only then is what it
///   carries read (a relationship's elements, on the changing thread; an element's value, when
///   taken). So the last change reserved reads the model after every change, and once the
///   threads that change the model are done, the state the handler was told of is the
///   model's, whatever order the changes arrived in.
/// - **One thread takes changes.** The first thread to find no one taking changes takes them
///   all (those other threads reserve meanwhile too), then leaves. Nobody waits: a thread that
///   finds another one taking changes leaves its change to it and returns. The handler is
///   never called on two threads at once. A change made inside the handler is taken at once,
///   depth-first, on the same thread (its own reads are done first).
/// - **Collect, unlock, call.** One lock guards the state (``SerialObservationStateMachine``:
///   queue, taker, windows, ended); reads, registrations and the handler run without it.
///
/// - **A relationship's change as it was made, when it can be.** A change of a followed
///   relationship whose window (prior notification to notification) overlapped no other is
///   applied as it was made, in O(changed elements), without reading the relationship; the
///   others are read again, as above (see ``SerialObservationStateMachine/Windows``).
///
/// Ending (``invalidate()``) empties the queue and ends every observation it holds; a call in
/// progress on another thread is waited for (its gate, as ``ObservationToken/invalidate()``
/// describes), and nothing is called after.
class SerialObservation: Observation, @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`; `calls` is a gate.
  let lock = Lock()
  /// The machine. Guarded by `lock`.
  private var machine: SerialObservationStateMachine<FollowedChange>
  /// Calls of the handler in progress, for ``invalidate()`` to wait for.
  private let calls = InFlightGate()
  /// The observed object, weakly: once it is gone, nothing more is delivered.
  private(set) weak var root: AnyObject?
  /// What is asked of each element's observation: ``ObservingOptions/prior`` if asked, and
  /// ``ObservingOptions/takesChangesInFlight``, as of every observation this one places.
  let elementOptions: ObservingOptions

  init(root: AnyObject, memberships: [ElementMembership], options: ObservingOptions) {
    self.root = root
    machine = SerialObservationStateMachine(memberships: memberships)
    elementOptions = options.intersection(.prior).union(.takesChangesInFlight)
  }

  /// The relationships followed, and what is known of their elements. Guarded by `lock`.
  var memberships: [ElementMembership] {
    get { machine.memberships }
    _modify { yield &machine.memberships }
  }

  /// Whether the observation ended. Guarded by `lock`.
  var isEnded: Bool { machine.isEnded }

  /// Takes one change, on the thread taking changes, with no lock held. Override.
  func process(_ change: FollowedChange) {}

  /// Whether an element key that is read-only (a `let`, which never changes) is followed
  /// through the relationship only, rather than refused as a key that does not notify.
  var acceptsReadOnlyKeys: Bool { false }

  /// Runs `transition` on the machine with the lock held, and performs what its action lets go
  /// of after unlocking (ending observations, releasing dropped changes). Returns the action.
  @discardableResult
  final func run(
    _ transition: (inout SerialObservationStateMachine<FollowedChange>) ->
      SerialObservationStateMachine<
        FollowedChange
      >.Action
  ) -> SerialObservationStateMachine<FollowedChange>.Action {
    let action = lock.withLock { transition(&machine) }
    // After unlocking: ending them may wait for their deliveries, and releases may run deinits.
    if case .end(let tokens, _) = action {
      for token in tokens { token.invalidate() }
    }
    return action
  }

  // MARK: - The queue

  /// Takes a place for a change in the queue; `nil` once ended.
  final func reserve() -> Int? {
    guard case .fill(let place) = run({ $0.reserve() }) else { return nil }
    return place
  }

  /// Puts `change` in its place, then takes the changes that are ready, if no one else does.
  final func fill(_ place: Int, with change: FollowedChange) {
    run { $0.fill(place, with: change) }
    take()
  }

  /// Reserves a place for `change`, which carries everything already, and takes the changes.
  final func submit(_ change: FollowedChange) {
    guard let place = reserve() else { return }
    fill(place, with: change)
  }

  /// Takes the changes that are ready, unless another thread does, or this one does already
  /// outside a call of the handler (then it goes on with them when it is done).
  final func take() {
    let thread = ThreadIdentity.current
    guard case .take(let nested) = run({ $0.startTaking(thread) }) else { return }
    takeReady(nested: nested)
  }

  /// Takes ready changes in order until none is ready, then lets go (or goes back to the call
  /// it is nested in).
  private func takeReady(nested: Bool) {
    while case .process(let change) = run({ $0.next(nested: nested) }) {
      process(change)
    }
  }

  /// Calls the handler through `body`, unless the observation ended; inside the gate, so that
  /// ``invalidate()`` waits for it.
  final func call(_ body: () -> Void) {
    guard calls.enter() else { return }
    defer { calls.leave() }
    guard case .call = run({ $0.beginCall() }) else { return }
    DeliveryScope.run(body)
    run { $0.endCall() }
  }

  // MARK: - Starting and ending

  /// Makes the calling thread take changes while the observation starts, so that changes
  /// heard of meanwhile wait for the start to finish. Call ``finishStart()`` after.
  final func beginStart() {
    let thread = ThreadIdentity.current
    run { $0.beginStart(thread) }
  }

  /// Drops the changes heard of so far: the start reads the model after them.
  final func dropPending() {
    run { $0.dropPending() }
  }

  /// Takes the changes heard of during the start, then lets go.
  final func finishStart() {
    takeReady(nested: false)
  }

  /// Keeps `token` as a part of this observation, ended with it (at once if it has ended).
  final func keep(_ token: ObservationToken) {
    run { $0.keep(token) }
  }

  override func invalidate() {
    run { $0.end() }
    // A call in progress on another thread is waited for, unless this thread is delivering
    // (it might be waited for in turn), as for every token.
    calls.closeAndWait()
  }
}
