import KVOLiteLocking

/// The state machine of a ``TwoWayBinding`` (its storage is `TwoWayMirror`): what it holds, who
/// crosses the model's changes, who writes the view model's values to the model, and whether it
/// was cancelled. Plain values; the mirror runs each transition with its lock held and performs
/// what it returns after unlocking: cross (read the model, write the view model), schedule a
/// task on the actor, write the model, cross after the view model's store, release.
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
struct TwoWayMirrorState<Model: AnyObject, Value: Equatable> {
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

  /// What to do about the model's value.
  @usableFromInline enum Crossing {
    case none
    /// Cross: write `model`'s value to the view model, unless it is `shown`.
    case cross(Model, shown: Value?)
    /// Have a task on the actor cross.
    case schedule
  }

  /// The binding is connected (its observation and subscription made) on `thread`: the view
  /// model takes the model's value, unless someone crosses already. Once cancelled, returns the
  /// parts to end.
  @inlinable
  mutating func start(
    observation: ObservationToken, subscription: AnyCancellable, thread: ThreadIdentity
  ) -> (Crossing, ended: (ObservationToken, AnyCancellable)?) {
    guard bound != nil else { return (.none, (observation, subscription)) }
    bound!.observation = observation
    bound!.subscription = subscription
    return (changed(thread, mayCrossHere: true), nil)
  }

  /// The model changed (its observation, on `thread`).
  @inlinable
  mutating func modelChanged(_ thread: ThreadIdentity) -> Crossing {
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
  mutating func changed(_ thread: ThreadIdentity, mayCrossHere: Bool) -> Crossing {
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
  mutating func scheduledTaskRuns(_ thread: ThreadIdentity) -> Crossing {
    guard bound?.modelSide == .scheduled else { return .none }
    bound!.modelSide = .crossing(thread, again: false)
    return .cross(bound!.model, shown: bound!.shown)
  }

  /// The crossing thread crossed: the model and the value shown, if the model changed since it
  /// read it (it crosses again); otherwise `nil`, and nobody crosses.
  @inlinable
  mutating func crossed() -> (Model, Value?)? {
    guard let side = bound?.modelSide, case .crossing(let thread, let again) = side else {
      return nil
    }
    guard again else {
      bound!.modelSide = .idle
      return nil
    }
    bound!.modelSide = .crossing(thread, again: false)
    return (bound!.model, bound!.shown)
  }

  /// What to do about a value the view model published.
  @usableFromInline enum Publication {
    /// Nothing: cancelled.
    case ignore
    /// Published while its thread crosses: the echo if it is the value being written (then
    /// ``showEcho(_:)``), else a set from inside that write, which the write's store overwrites.
    case checkEcho
    /// Write it to `model`, unless it equals `replaced` (the value shown before); then
    /// ``wrote(_:)``.
    case write(Model, replaced: Value?)
  }

  /// The view model published `value`, in its willSet, on `thread`.
  @inlinable
  mutating func viewModelPublished(_ value: Value, _ thread: ThreadIdentity) -> Publication {
    guard bound != nil else { return .ignore }
    if case .crossing(thread, _) = bound!.modelSide { return .checkEcho }
    let replaced = bound!.shown.take()
    bound!.shown = value
    if bound!.setter?.thread != thread { bound!.setter = Setter(thread: thread) }
    bound!.setter!.depth += 1
    return .write(bound!.model, replaced: replaced)
  }

  /// The crossing thread's write was published back: the view model shows `value`. Returns the
  /// value shown before, to release after unlocking.
  @inlinable
  mutating func showEcho(_ value: Value) -> Value? {
    guard bound != nil else { return nil }
    defer { bound!.shown = value }
    return bound!.shown.take()
  }

  /// What to do once a setter wrote the model.
  @usableFromInline enum Written: Equatable {
    case none
    /// A model observer adjusted the value: cross it once the view model stored its own.
    case crossAfterStore
    /// The same, on the actor: have a task cross it (it runs after the set).
    case schedule
  }

  /// The setter on `thread` wrote (or skipped) its value.
  @inlinable
  mutating func wrote(_ thread: ThreadIdentity) -> Written {
    guard bound != nil, var setter = bound!.setter, setter.thread == thread else { return .none }
    setter.depth -= 1
    guard setter.depth == 0 else {
      bound!.setter = setter
      return .none
    }
    bound!.setter = nil
    guard setter.notifications > 1 else { return .none }
    guard crossesOnActor else { return .crossAfterStore }
    switch changed(thread, mayCrossHere: false) {
    case .schedule: return .schedule
    case .none, .cross: return .none
    }
  }

  /// Cancels: returns what the binding held, to end and release after unlocking; `nil` if it
  /// was cancelled already.
  @inlinable
  mutating func cancel() -> Bound? {
    bound.take()
  }
}
