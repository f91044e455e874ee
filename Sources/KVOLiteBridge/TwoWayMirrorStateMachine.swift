import KVOLiteLocking

/// The state machine of a ``TwoWayBinding`` (its storage is `TwoWayMirror`): what it holds, who
/// crosses the model's changes, who writes the view model's values to the model, and whether it
/// was cancelled. Plain values; the mirror runs each transition with its lock held and performs
/// the ``Action`` it returns after unlocking: cross (read the model, write the view model),
/// schedule a task on the actor, write the model, cross after the view model's store, release,
/// end.
///
/// ```
///              model changed (not a setter)              crossed, not again
///     idle ----------------------------------> crossing ---------------------> idle
///      |  \                                     |    ^
///      |   \ model changed, on an actor         |    | model changed: again
///      |    v                                   +----+ (crossed, again: cross once more)
///      |   scheduled --the task runs--> crossing
///      |
///      +-- the view model published (any state but the crossing thread's own): a setter,
///          which writes the model; the model's notifications on its thread are its echo, and
///          two or more are an adjustment (a model observer changed the value): crossed once
///          the view model has stored its value
///   any --cancel--> cancelled (holds nothing; no transition leaves it)
/// ```
@usableFromInline
struct TwoWayMirrorStateMachine<Model: AnyObject, Value: Equatable> {
  /// Who crosses the model's changes to the view model.
  @usableFromInline enum ModelSide: Equatable {
    /// Nobody: the view model shows what was crossed last.
    case idle
    /// `thread` crosses; `again`: the model changed since it last read it.
    case crossing(ThreadIdentity, again: Bool)
    /// A task on the actor will cross (reading the model then).
    case scheduled
  }

  /// A thread writing a value of the view model to the model, and the model's notifications it
  /// got meanwhile (its echo, and an adjustment if more than one).
  @usableFromInline struct Setter: Equatable {
    @usableFromInline var thread: ThreadIdentity
    /// Sets in progress on that thread (nested, when a set of the model sets the view model).
    @usableFromInline var depth: Int
    @usableFromInline var notifications: Int

    @inlinable init(thread: ThreadIdentity) {
      self.thread = thread
      depth = 0
      notifications = 0
    }
  }

  /// What the binding holds until it is cancelled.
  @usableFromInline struct Bound {
    @usableFromInline var model: Model
    @usableFromInline var observation: ObservationToken?
    @usableFromInline var subscription: AnyCancellable?
    /// The value the view model shows: the last one it published.
    @usableFromInline var shown: Value?
    @usableFromInline var modelSide = ModelSide.idle
    /// The thread writing the view model's value to the model, if one is. (With a
    /// `@Published` whose sets are not serialized, the last one to begin.)
    @usableFromInline var setter: Setter?

    @inlinable init(model: Model) { self.model = model }
  }

  /// `nil` once cancelled: the one ended state.
  @usableFromInline var bound: Bound?
  /// The binding was made on an actor: the model's changes cross in a task there.
  @usableFromInline let crossesOnActor: Bool

  @inlinable init(model: Model, crossesOnActor: Bool) {
    bound = Bound(model: model)
    self.crossesOnActor = crossesOnActor
  }

  /// What the owner does after a transition.
  @usableFromInline enum Action {
    /// Nothing.
    case none
    /// Cross: write `model`'s value to the view model, unless it is `shown`; then
    /// ``crossed()``.
    case cross(Model, shown: Value?)
    /// Have a task on the actor cross (``scheduledTaskRuns(_:)``).
    case schedule
    /// The view model published while its thread crosses: the echo if it is the value being
    /// written (then ``showEcho(_:)``), else a set from inside that write, which the write's
    /// store overwrites.
    case checkEcho
    /// Write the value published to `model`, unless it equals `replaced` (the value shown
    /// before); then ``wrote(_:)``.
    case write(Model, replaced: Value?)
    /// A model observer adjusted the value written: cross it once the view model stored its
    /// own.
    case crossAfterStore
    /// Release `value` (the value shown before) after unlocking.
    case release(Value?)
    /// End and release what the binding held: its observation and subscription (what a start
    /// after the cancel made), or all of it (`cancel`).
    case end(observation: ObservationToken?, subscription: AnyCancellable?, held: Bound?)
  }

  /// The binding is connected (its observation and subscription made) on `thread`: the view
  /// model takes the model's value, unless someone crosses already. Once cancelled, returns the
  /// parts to end.
  @inlinable
  mutating func start(
    observation: ObservationToken, subscription: AnyCancellable, thread: ThreadIdentity
  ) -> Action {
    guard bound != nil else {
      return .end(observation: observation, subscription: subscription, held: nil)
    }
    bound!.observation = observation
    bound!.subscription = subscription
    return changed(thread, mayCrossHere: true)
  }

  /// The model changed (its observation, on `thread`).
  @inlinable
  mutating func modelChanged(_ thread: ThreadIdentity) -> Action {
    guard bound != nil else { return .none }
    if bound!.modelSide == .idle, bound!.setter?.thread == thread {
      // Its own write's notification: the echo (one), or an adjustment (more).
      bound!.setter!.notifications += 1
      return .none
    }
    return changed(thread, mayCrossHere: !crossesOnActor)
  }

  /// Someone must cross the model's value: `thread` (if it may) unless a crossing is under
  /// way or scheduled (then it reads the model again before it ends).
  @inlinable
  mutating func changed(_ thread: ThreadIdentity, mayCrossHere: Bool) -> Action {
    switch bound!.modelSide {
    case .crossing(let crosser, _):
      bound!.modelSide = .crossing(crosser, again: true)
      return .none
    case .scheduled:
      return .none
    case .idle where mayCrossHere:
      bound!.modelSide = .crossing(thread, again: false)
      return .cross(bound!.model, shown: bound!.shown)
    case .idle:
      bound!.modelSide = .scheduled
      return .schedule
    }
  }

  /// A task on the actor runs, on `thread`: it crosses, if it is still scheduled.
  @inlinable
  mutating func scheduledTaskRuns(_ thread: ThreadIdentity) -> Action {
    guard bound?.modelSide == .scheduled else { return .none }
    bound!.modelSide = .crossing(thread, again: false)
    return .cross(bound!.model, shown: bound!.shown)
  }

  /// The crossing thread crossed: `.cross` again if the model changed since it read it;
  /// otherwise nothing, and nobody crosses.
  @inlinable
  mutating func crossed() -> Action {
    guard let side = bound?.modelSide, case .crossing(let thread, let again) = side else {
      return .none
    }
    guard again else {
      bound!.modelSide = .idle
      return .none
    }
    bound!.modelSide = .crossing(thread, again: false)
    return .cross(bound!.model, shown: bound!.shown)
  }

  /// The view model published `value`, in its willSet, on `thread`.
  @inlinable
  mutating func viewModelPublished(_ value: Value, _ thread: ThreadIdentity) -> Action {
    guard bound != nil else { return .none }
    if case .crossing(thread, _) = bound!.modelSide { return .checkEcho }
    let replaced = bound!.shown.take()
    bound!.shown = value
    if bound!.setter?.thread != thread { bound!.setter = Setter(thread: thread) }
    bound!.setter!.depth += 1
    return .write(bound!.model, replaced: replaced)
  }

  /// The crossing thread's write was published back: the view model shows `value`; `.release`
  /// the value shown before.
  @inlinable
  mutating func showEcho(_ value: Value) -> Action {
    guard bound != nil else { return .none }
    defer { bound!.shown = value }
    return .release(bound!.shown.take())
  }

  /// The setter on `thread` wrote (or skipped) its value.
  @inlinable
  mutating func wrote(_ thread: ThreadIdentity) -> Action {
    guard bound != nil, var setter = bound!.setter, setter.thread == thread else { return .none }
    setter.depth -= 1
    guard setter.depth == 0 else {
      bound!.setter = setter
      return .none
    }
    bound!.setter = nil
    guard setter.notifications > 1 else { return .none }
    guard crossesOnActor else { return .crossAfterStore }
    guard case .schedule = changed(thread, mayCrossHere: false) else { return .none }
    return .schedule
  }

  /// Cancels: `.end` what the binding held; nothing if it was cancelled already.
  @inlinable
  mutating func cancel() -> Action {
    guard let held = bound.take() else { return .none }
    return .end(observation: held.observation, subscription: held.subscription, held: held)
  }
}
