import KVOLiteLocking

/// The storage of a ``TwoWayBinding``: its state machine (``TwoWayMirrorStateMachine``) behind one
/// lock, the gate of its crossings, and the two directions' crossings, which perform what the
/// machine's transitions return.
///
/// - **View model → model.** The view model's subscription gets each value in the property's
///   willSet, on the thread that sets it; it notes the value as the one the view model shows,
///   and writes it to the model there, unless the view model showed it already (a change of
///   the model that the view model does not show yet is being crossed the other way).
///   `@Published` makes sets of the property from several threads one at a time, so these
///   crossings are too.
/// - **Model → view model.** A change of the model is crossed by one thread at a time, the
///   *crossing thread*: the first thread to report a change becomes it, and crosses until no
///   change is pending; a change reported meanwhile is left to it. It reads the model's value
///   when it crosses (not the value of the notification: two sets may be delivered in the
///   other order than they were stored), and writes it to the view model unless the view model
///   shows it already. A thread setting the view model never becomes the crossing thread: what
///   it wrote to the property now would be overwritten by its own set's store; a thread that
///   sets the model meanwhile crosses after that store (the property's sets are one at a time).
///   With an actor (the binding was made on it), the crossing thread is a task on the actor.
/// - **Echo.** The model's notification of a value the view model's setter is writing, and the
///   property's publication of a value the crossing thread is writing, are recognized by their
///   thread and cross nothing back. The value the view model shows is noted under the lock, and
///   `==` always runs outside it.
/// - **Adjustment.** A model observer that changes the value the setter wrote (a second
///   notification on the setter's thread) is crossed once the property has stored the setter's
///   value: by KVOLite's `@Published` right after its store (``viewModelPublished(_:)``
///   returns `true`, and the caller asks the property to run ``modelChanged()`` then), or in a
///   task on the actor. (Apple's `@Published`, off an actor, has no such moment: see
///   ``TwoWayBinding``.)
///
/// So once the writers on both sides stop, both sides hold the model's last stored value.
///
/// Every crossing runs inside the gate `crossings` (an ``InFlightGate``) and counts as a
/// delivery (``/KVOLiteLocking/DeliveryScope``). `cancel()` closes the gate and waits for the
/// crossings inside, unless called from inside a delivery, where it does not wait; after it, no
/// crossing starts. The mirror holds the model until cancelled, and the view model weakly; the
/// observation and the subscription hold the mirror until then.
@usableFromInline
final class TwoWayMirror<Model: KeyValueObservable, ViewModel: AnyObject, Value: Equatable>:
  Cancellable, @unchecked Sendable
{
  // @unchecked: `state` is behind `lock`; `writing` belongs to the crossing thread (the role
  // is handed over under `lock`); the gate is atomic; the rest is immutable (`viewModel`,
  // weak, is only read). The crossing paths are inlinable, so that the client specializes them
  // for its model, view model and value (unspecialized, they look up generic metadata on every
  // crossing: the D2 benchmark row), and their accesses are not checked for exclusivity at run
  // time (`state` is only touched with `lock` held, `writing` by one thread).
  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var state: TwoWayMirrorStateMachine<Model, Value>
  /// The crossings in progress, which `cancel()` waits for.
  @usableFromInline let crossings = InFlightGate()
  /// The value the crossing thread is writing to the view model; only that thread touches it.
  @exclusivity(unchecked) @usableFromInline var writing: Value?
  /// Reading and writing the model's key path, and writing the view model's property: closures
  /// made where the binding is made, whose key paths the client's optimizer folds into direct
  /// accessor calls (a key path kept here would be applied through the runtime).
  @usableFromInline let read: (Model) -> Value
  @usableFromInline let write: (Model, Value) -> Void
  @usableFromInline let show: (ViewModel, Value) -> Void
  @usableFromInline weak var viewModel: ViewModel?
  @usableFromInline let actor: (any Actor)?

  @usableFromInline
  init(
    model: Model, read: @escaping (Model) -> Value, write: @escaping (Model, Value) -> Void,
    viewModel: ViewModel, show: @escaping (ViewModel, Value) -> Void, actor: (any Actor)?
  ) {
    state = TwoWayMirrorStateMachine(model: model, crossesOnActor: actor != nil)
    self.read = read
    self.write = write
    self.viewModel = viewModel
    self.show = show
    self.actor = actor
  }

  /// Runs `body` as a crossing: inside the gate (nothing, once cancelled) and as a delivery.
  @inlinable
  func crossing(_ body: () -> Void) {
    guard crossings.enter() else { return }
    let depth = DeliveryScope.enter()
    body()
    DeliveryScope.leave(depth)
    crossings.leave()
  }

  /// Performs `action`, on the calling thread (which the transition made the crossing thread,
  /// if it crosses), after unlocking.
  @inlinable
  func perform(_ action: TwoWayMirrorStateMachine<Model, Value>.Action) {
    switch action {
    case .cross(let model, let shown): crossPending(model, shown)
    case .schedule: schedule()
    case .end(let observation, let subscription, _):
      observation?.invalidate()
      subscription?.cancel()
    // The rest is released when the action is.
    case .none, .checkEcho, .write, .crossAfterStore, .release: return
    }
  }

  /// Connects both sides: subscribes to the view model (whose current value does not cross),
  /// then gives it the model's value, on the calling thread (which is on the actor, if any).
  @usableFromInline
  func start(observation: ObservationToken, subscribe: (TwoWayMirror) -> AnyCancellable) {
    let subscription = subscribe(self)
    let thread = ThreadIdentity.current
    crossing {
      perform(
        lock.withLock {
          state.start(observation: observation, subscription: subscription, thread: thread)
        })
    }
  }

  // MARK: - Model → view model

  /// The model changed (its observation, on the thread that changed it), or a model observer
  /// adjusted the value the view model's set wrote (once the view model stored it).
  @inlinable
  func modelChanged() {
    let thread = ThreadIdentity.current
    crossing {
      lock.lock()
      let next = state.modelChanged(thread)
      lock.unlock()
      perform(next)
    }
  }

  /// Has a task on the actor cross the model's changes.
  @usableFromInline
  func schedule() {
    guard let actor else { return }
    let crossing: any ScheduledCrossing = self
    Task { await crossing.cross(on: actor) }
  }

  /// A task on the actor crosses the model's changes, unless a thread is crossing already.
  fileprivate func crossScheduled() {
    let thread = ThreadIdentity.current
    crossing {
      perform(lock.withLock { state.scheduledTaskRuns(thread) })
    }
  }

  /// Crosses the model's value (`shown` is the value the view model showed when the calling
  /// thread became the crossing thread), then again while the model changed meanwhile. Only
  /// the crossing thread calls it, inside the gate. It lets go of the model and the view model
  /// before it stops crossing, so that once `cancel()` has returned (it waits for the gate),
  /// nothing the binding started holds them.
  @inlinable
  func crossPending(_ model: consuming Model, _ shown: Value?) {
    var next: (Model, Value?)? = (consume model, shown)
    repeat {
      // The taken model is released when `cross` returns, before the next turn.
      cross(next.take()!)
      if case .cross(let model, let shown) = lock.withLock({ state.crossed() }) {
        next = (model, shown)
      }
    } while next != nil
  }

  /// Writes the model's value to the view model, unless it shows it already.
  @inlinable
  func cross(_ pending: consuming (model: Model, shown: Value?)) {
    let value = read(pending.model)
    if pending.shown != value, let viewModel {
      writing = value
      show(viewModel, value)
      writing = nil
    }
  }

  // MARK: - View model → model

  /// The view model published `value` (its subscription, in the property's willSet, on the
  /// thread that set it). Returns whether a model observer adjusted the value written: the
  /// caller then calls ``modelChanged()`` once the property has stored `value`.
  @inlinable
  func viewModelPublished(_ value: Value) -> Bool {
    let thread = ThreadIdentity.current
    var adjusted = false
    crossing {
      lock.lock()
      switch state.viewModelPublished(value, thread) {
      case .checkEcho:
        lock.unlock()
        // Published while this thread crosses: the value it writes (the echo), which the view
        // model shows from now (its sets are one at a time: one after this comes after), or one
        // set from inside that write, which the write's own store overwrites.
        guard let writing, writing == value else { return }
        let replaced = lock.withLock { state.showEcho(value) }
        withExtendedLifetime(replaced) {}
      case .write(let model, let replaced):
        lock.unlock()
        // Unchanged, it does not cross (a change of the model not shown yet is being crossed).
        if replaced != value { write(model, value) }
        switch lock.withLock({ state.wrote(thread) }) {
        case .crossAfterStore: adjusted = true
        case .schedule: schedule()
        default: break
        }
      default:
        lock.unlock()
      }
    }
    return adjusted
  }

  // MARK: - The end

  /// Ends both directions: after it returns, nothing crosses (see the type's discussion for
  /// when it waits).
  @usableFromInline
  func cancel() {
    perform(lock.withLock { state.cancel() })
    crossings.closeAndWait()
    // The model, the token, the subscription and the shown value are released here.
  }
}

/// A mirror, without its generic parameters, for a task to call on an actor (a task that
/// captured the generic mirror would capture its parameters' metatypes, which are not Sendable).
private protocol ScheduledCrossing: AnyObject, Sendable {
  func crossScheduled()
}

extension ScheduledCrossing {
  /// Crosses what is pending, on `actor`.
  func cross(on actor: isolated any Actor) {
    crossScheduled()
  }
}

extension TwoWayMirror: ScheduledCrossing {}
