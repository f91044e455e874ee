import KVOLiteLocking

/// What a ``TwoWayBinding`` is: one state behind one lock, and the crossings that one thread at
/// a time makes.
///
/// Each side only reports, under the lock: the model's observation that the model changed, the
/// view model's subscription the value it published. The thread that finds nobody crossing
/// becomes the crossing thread: it takes what is pending, unlocks, crosses (writes the other
/// side, which may report again, nested), and goes on until nothing is pending. A thread that
/// finds a crossing in progress leaves its report to that thread and returns. So:
///
/// - crossings never overlap, and nothing waits for them but `cancel()`;
/// - the model's value is read when it crosses, not taken from the notification: of two sets
///   of the model delivered in the other order than they were stored, the view model ends with
///   the value stored last;
/// - the last value that crossed (the echo guard: an equal value does not cross again) belongs
///   to the crossing thread, so `==` runs without a lock and without retries.
///
/// With an actor (the binding was made on it, for a view model isolated to it), a change of the
/// model is crossed by a task on that actor rather than by the thread that made it.
///
/// `cancel()` returns when no crossing is in progress on another thread, unless called from
/// inside a delivery (``/KVOLiteLocking/DeliveryScope``), where it does not wait; after it, no
/// crossing starts. The mirror holds the model until cancelled, and the view model weakly;
/// the observation and the subscription hold the mirror until cancelled.
@usableFromInline
final class TwoWayMirror<Model: KeyValueObservable, ViewModel: AnyObject, Value: Equatable>:
  Cancellable, @unchecked Sendable
{
  // @unchecked: `state` is behind `lock`; `last` belongs to the crossing thread (handed over
  // through `lock`); the rest is immutable.
  private struct State {
    /// The model, until cancelled.
    var model: Model?
    var observation: ObservationToken?
    var subscription: AnyCancellable?
    var isCancelled = false
    /// A thread is crossing (``crossPending()``).
    var isCrossing = false
    /// A task on the actor will cross.
    var isScheduled = false
    /// The model changed since its value last crossed.
    var modelChanged = false
    /// The latest value the view model published that has not crossed yet.
    var published: Value?
  }

  /// One crossing, with what it needs taken out of the state.
  private enum Crossing {
    case toModel(Model, Value)
    case toViewModel(Model)
  }

  private let lock = Lock()
  private var state: State
  /// The last value that crossed, either way; only the crossing thread touches it.
  private var last: Value?
  private let keyPath: ReferenceWritableKeyPath<Model, Value>
  private let property: ReferenceWritableKeyPath<ViewModel, Value>
  private weak var viewModel: ViewModel?
  private let actor: (any Actor)?

  @usableFromInline
  init(
    model: Model, keyPath: ReferenceWritableKeyPath<Model, Value>, viewModel: ViewModel,
    property: ReferenceWritableKeyPath<ViewModel, Value>, actor: (any Actor)?
  ) {
    state = State(model: model)
    self.keyPath = keyPath
    self.viewModel = viewModel
    self.property = property
    self.actor = actor
  }

  /// Connects both sides, then gives the view model the model's value (on the calling thread,
  /// which is on the actor, if any).
  @usableFromInline
  func start(
    observation: ObservationToken,
    subscribe: (TwoWayMirror) -> AnyCancellable
  ) {
    lock.withLock {
      state.observation = observation
      state.modelChanged = true
      state.isCrossing = true
    }
    crossPending()
    let subscription = subscribe(self)
    let cancelled = lock.withLock { () -> Bool in
      state.subscription = subscription
      return state.isCancelled
    }
    if cancelled { subscription.cancel() }
  }

  // MARK: - Reports

  /// The model changed (its observation, on any thread).
  @usableFromInline
  func modelChanged() {
    lock.lock()
    guard !state.isCancelled else { return lock.unlock() }
    state.modelChanged = true
    guard !state.isCrossing, !state.isScheduled else { return lock.unlock() }
    if let actor {
      state.isScheduled = true
      lock.unlock()
      let crossing: any ScheduledCrossing = self
      Task { await crossing.cross(on: actor) }
    } else {
      state.isCrossing = true
      lock.unlock()
      crossPending()
    }
  }

  /// The view model published `value` (its subscription, on the thread that set it).
  @usableFromInline
  func viewModelPublished(_ value: Value) {
    lock.lock()
    guard !state.isCancelled else { return lock.unlock() }
    let replaced = state.published.take()
    state.published = value
    guard !state.isCrossing else {
      lock.unlock()
      return withExtendedLifetime(replaced) {}
    }
    state.isCrossing = true
    lock.unlock()
    withExtendedLifetime(replaced) {}
    crossPending()
  }

  /// A task on the actor crosses what is pending, unless a thread is crossing already.
  fileprivate func crossScheduled() {
    lock.lock()
    state.isScheduled = false
    guard !state.isCancelled, !state.isCrossing else { return lock.unlock() }
    state.isCrossing = true
    lock.unlock()
    crossPending()
  }

  // MARK: - Crossing

  /// Crosses until nothing is pending. Only the thread that set `isCrossing` calls it. It counts
  /// as a delivery: a `cancel()` made inside does not wait for the crossing it is part of.
  private func crossPending() {
    DeliveryScope.run {
      while let crossing = next() {
        switch crossing {
        case .toModel(let model, let value):
          guard value != last else { continue }
          last = value
          model[keyPath: keyPath] = value
        case .toViewModel(let model):
          let value = model[keyPath: keyPath]
          guard value != last, let viewModel else { continue }
          last = value
          viewModel[keyPath: property] = value
        }
      }
    }
  }

  /// The next crossing, taken out of the state; `nil` when nothing is pending (or the binding
  /// was cancelled), and then the calling thread is no longer crossing.
  private func next() -> Crossing? {
    lock.lock()
    defer { lock.unlock() }
    guard !state.isCancelled, let model = state.model else {
      state.isCrossing = false
      return nil
    }
    if let value = state.published.take() { return .toModel(model, value) }
    if state.modelChanged {
      state.modelChanged = false
      return .toViewModel(model)
    }
    state.isCrossing = false
    return nil
  }

  // MARK: - The end

  /// Ends both directions: after it returns, nothing crosses (see the type's discussion for
  /// when it waits).
  @usableFromInline
  func cancel() {
    let (taken, crossing) = lock.withLock {
      () -> ((Model?, ObservationToken?, AnyCancellable?, Value?), Bool) in
      state.isCancelled = true
      let taken = (
        state.model.take(), state.observation.take(), state.subscription.take(),
        state.published.take()
      )
      return (taken, state.isCrossing)
    }
    taken.1?.invalidate()
    taken.2?.cancel()
    if crossing, !DeliveryScope.isDelivering {
      Parking.wait { lock.withLock { !state.isCrossing } }
    }
    // The model, the token, the subscription and a pending value are released here.
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
