import KVOLiteLocking

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a ``TwoWayBinding`` is: one state behind one lock, and the two directions' crossings.
///
/// - **View model → model.** The view model's subscription gets each value in the property's
///   willSet, on the thread that sets it; it notes the value as the one the view model shows,
///   and writes it to the model there, unless the view model showed it already (a change of
///   the model that the view model does not show yet is being crossed the other way). `@Published` makes
///   sets of the property from several threads one at a time, so these crossings are too.
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
///
/// So once the writers on both sides stop, both sides hold the model's last stored value.
///
/// `cancel()` returns when no crossing is in progress on another thread, unless called from
/// inside a delivery (``/KVOLiteLocking/DeliveryScope``; crossings count as deliveries), where
/// it does not wait; after it, no crossing starts. The mirror holds the model until cancelled,
/// and the view model weakly; the observation and the subscription hold the mirror until then.
@usableFromInline
final class TwoWayMirror<Model: KeyValueObservable, ViewModel: AnyObject, Value: Equatable>:
  Cancellable, @unchecked Sendable
{
  // @unchecked: `state` is behind `lock`; `writing` belongs to the crossing thread (the role
  // is handed over under `lock`); the rest is immutable (`viewModel`, weak, is only read).
  // The crossing paths are inlinable, so that the client specializes them for its model, view
  // model and value (unspecialized, they look up generic metadata on every crossing: the D2
  // benchmark row), and their accesses are not checked for exclusivity at run time (`state`
  // is only touched with `lock` held, `writing` by one thread).
  @usableFromInline struct State {
    /// The model, until cancelled.
    @usableFromInline var model: Model?
    @usableFromInline var observation: ObservationToken?
    @usableFromInline var subscription: AnyCancellable?
    @usableFromInline var isCancelled = false
    /// The crossing thread, if one is crossing a change of the model.
    @usableFromInline var crossingThread: UInt?
    /// A task on the actor will cross.
    @usableFromInline var isScheduled = false
    /// The model changed since the crossing thread last read it.
    @usableFromInline var modelChanged = false
    /// The thread writing a value of the view model to the model, and how many are (one, but
    /// for a `@Published` whose sets are not serialized).
    @usableFromInline var settingThread: UInt?
    @usableFromInline var settingCount = 0
    /// The value the view model shows: the last one it published.
    @usableFromInline var shown: Value?

    @usableFromInline init(model: Model) { self.model = model }
  }

  @usableFromInline let lock = Lock()
  @exclusivity(unchecked) @usableFromInline var state: State
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
    state = State(model: model)
    self.read = read
    self.write = write
    self.viewModel = viewModel
    self.show = show
    self.actor = actor
  }

  /// Connects both sides: subscribes to the view model (whose current value does not cross),
  /// then gives it the model's value, on the calling thread (which is on the actor, if any).
  @usableFromInline
  func start(observation: ObservationToken, subscribe: (TwoWayMirror) -> AnyCancellable) {
    let subscription = subscribe(self)
    let thread = currentThread()
    lock.lock()
    state.observation = observation
    state.subscription = subscription
    guard !state.isCancelled else {
      lock.unlock()
      return subscription.cancel()
    }
    guard state.crossingThread == nil, !state.isScheduled else {
      state.modelChanged = true
      return lock.unlock()
    }
    state.crossingThread = thread
    let (model, shown) = (state.model!, state.shown)
    lock.unlock()
    crossPending(consume model, shown)
  }

  // MARK: - Model → view model

  /// The model changed (its observation, on the thread that changed it).
  @inlinable
  func modelChanged() {
    let thread = currentThread()
    lock.lock()
    guard !state.isCancelled else { return lock.unlock() }
    if state.crossingThread != nil || state.isScheduled {
      // The crossing thread reads the model again before it finishes.
      state.modelChanged = true
      return lock.unlock()
    }
    // This thread is writing the view model's value to the model: the echo.
    guard state.settingThread != thread, let model = state.model else { return lock.unlock() }
    if actor != nil {
      state.modelChanged = true
      state.isScheduled = true
      lock.unlock()
      schedule()
    } else {
      state.crossingThread = thread
      let shown = state.shown
      lock.unlock()
      crossPending(consume model, shown)
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
    let thread = currentThread()
    lock.lock()
    state.isScheduled = false
    guard !state.isCancelled, state.crossingThread == nil, state.modelChanged,
      let model = state.model
    else { return lock.unlock() }
    state.modelChanged = false
    state.crossingThread = thread
    let shown = state.shown
    lock.unlock()
    crossPending(consume model, shown)
  }

  /// Crosses the model's value (`shown` is the value the view model showed when the calling
  /// thread became the crossing thread), then again while the model changed meanwhile. Only
  /// the crossing thread calls it; it counts as a delivery (a `cancel()` inside does not wait
  /// for it). It lets go of the model and the view model before it stops crossing, so that
  /// once `cancel()` has returned (it waits for the crossing thread), nothing the binding
  /// started holds them.
  @inlinable
  func crossPending(_ model: consuming Model, _ shown: Value?) {
    var next: (Model, Value?)? = (consume model, shown)
    DeliveryScope.run {
      repeat {
        // The taken model is released when `cross` returns, before the next turn.
        cross(next.take()!)
        next = nextModelValue()
      } while next != nil
    }
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

  /// The model, and the value the view model shows, if the model changed since it was last
  /// read; otherwise `nil`, and the calling thread is no longer crossing.
  @inlinable
  func nextModelValue() -> (Model, Value?)? {
    lock.lock()
    defer { lock.unlock() }
    guard !state.isCancelled, state.modelChanged, let model = state.model else {
      state.crossingThread = nil
      return nil
    }
    state.modelChanged = false
    return (model, state.shown)
  }

  // MARK: - View model → model

  /// The view model published `value` (its subscription, in the property's willSet, on the
  /// thread that set it).
  @inlinable
  func viewModelPublished(_ value: Value) {
    let thread = currentThread()
    lock.lock()
    guard !state.isCancelled, let model = state.model else { return lock.unlock() }
    if state.crossingThread == thread {
      lock.unlock()
      // Published while this thread crosses: the value it writes (the echo), which the view
      // model shows from now (its sets are one at a time: one after this comes after), or one
      // set from inside that write, which the write's own store overwrites.
      guard let writing, writing == value else { return }
      let replaced = lock.withLock { () -> Value? in
        defer { state.shown = value }
        return state.shown.take()
      }
      return withExtendedLifetime(replaced) {}
    }
    let replaced = state.shown.take()
    state.shown = value
    state.settingThread = thread
    state.settingCount += 1
    lock.unlock()
    // Unchanged, it does not cross (a change of the model not shown yet is being crossed).
    if replaced != value {
      DeliveryScope.run { write(model, value) }
    }
    lock.withLock {
      state.settingCount -= 1
      if state.settingCount == 0 { state.settingThread = nil }
    }
  }

  // MARK: - The end

  /// Ends both directions: after it returns, nothing crosses (see the type's discussion for
  /// when it waits).
  @usableFromInline
  func cancel() {
    let (taken, busy) = lock.withLock {
      () -> ((Model?, ObservationToken?, AnyCancellable?, Value?), Bool) in
      state.isCancelled = true
      let taken = (
        state.model.take(), state.observation.take(), state.subscription.take(),
        state.shown.take()
      )
      return (taken, state.crossingThread != nil || state.settingCount > 0)
    }
    taken.1?.invalidate()
    taken.2?.cancel()
    if busy, !DeliveryScope.isDelivering {
      Parking.wait {
        lock.withLock { state.crossingThread == nil && state.settingCount == 0 }
      }
    }
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

/// An identifier of the calling thread, unique among live threads.
@inlinable
func currentThread() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}
