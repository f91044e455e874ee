/// How a subject treats values and demand: the subjects, `@Published` and `objectWillChange`
/// share one state machine (``SubjectStateMachine``) and one kind of conduit
/// (``SubjectConduitStateMachine``), and differ only in these rules.
@usableFromInline
enum SubjectKind: Sendable {
  /// `PassthroughSubject`: keeps no value; asks its upstreams for values once a subscriber has
  /// asked.
  case passthrough
  /// `CurrentValueSubject`: stores, then sends; a new subscriber gets the current value on its
  /// first request; asks its upstreams for values at once.
  case currentValue
  /// `@Published`: sends (in willSet), then stores; otherwise like `currentValue`.
  case published
  /// `ObservableObjectPublisher`: delivers every value, whatever the demand.
  case ignoresDemand

  /// Whether the subject keeps a current value, which a new subscriber receives first.
  @inlinable var hasValue: Bool { self == .currentValue || self == .published }

  /// Whether a value is stored before it is sent (`CurrentValueSubject`).
  @inlinable var storesBeforeSending: Bool { self == .currentValue }

  /// Whether a value is stored after it is sent (`@Published`, which sends in willSet).
  @inlinable var storesAfterSending: Bool { self == .published }

  /// Whether every value goes out, whatever the subscriber's demand.
  @inlinable var ignoresDemand: Bool { self == .ignoresDemand }

  /// Whether the subject asks its upstreams for values as soon as it has them (otherwise,
  /// once one of its subscribers has asked).
  @inlinable var asksUpstreamsAtOnce: Bool { self != .passthrough }
}
