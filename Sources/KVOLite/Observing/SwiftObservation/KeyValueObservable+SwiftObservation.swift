import Observation

// The tracking hooks of ``Observed``'s accessors. The witness is chosen where the class adopts
// ``KeyValueObservable``: `Root` is then `Self` (the getter calls `Root._observedRead`, so the
// casts below are exact). The first extension's if it is not `Observable` (nothing, inlined
// away, so such a class pays nothing), the second's if it is (Swift's registrar). A subclass
// that adds `Observable` keeps its superclass's witnesses: ``Observed``'s first read of each
// property stops it with a message (see ``SwiftObservationBox/checkNotObservable(_:)``).

extension KeyValueObservable {
  /// `false`: the class is not `Observable` (or adopted it below its ``KeyValueObservable``
  /// root, which does not count).
  @inlinable
  public static var _tracksSwiftObservation: Bool { false }

  /// Does nothing: Swift Observation does not track this class.
  @inlinable @inline(__always)
  public static func _observedRead<Root: KeyValueObservable, Member>(
    _ object: Root, _ keyPath: KeyPath<Root, Member>
  ) {}

  /// `nil`: Swift Observation does not track this class.
  @inlinable
  public static func _observationNotifier<Root: KeyValueObservable, Member>(
    for keyPath: KeyPath<Root, Member>
  ) -> AnyObject? { nil }

  /// Does nothing, and returns `nil`: Swift Observation does not track this class.
  @inlinable @inline(__always)
  public static func _observedWillSet<Root: KeyValueObservable, Member>(
    _ object: Root, _ keyPath: KeyPath<Root, Member>, to newValue: Member,
    from current: () -> Member
  ) -> Unmanaged<AnyObject>? { nil }

  /// Does nothing: Swift Observation does not track this class.
  @inlinable @inline(__always)
  public static func _observedDidSet<Root: KeyValueObservable, Member>(
    _ object: Root, _ keyPath: KeyPath<Root, Member>, reportedTo registrar: Unmanaged<AnyObject>
  ) {}
}

extension KeyValueObservable where Self: Observable {
  /// `true`: the class that adopts ``KeyValueObservable`` is `Observable`.
  @inlinable
  public static var _tracksSwiftObservation: Bool { true }

  /// Reports the read to the object's Swift registrar (`access`), which a
  /// `withObservationTracking` running on this thread records. Thread-safe.
  @inlinable @inline(__always)
  public static func _observedRead<Root: KeyValueObservable, Member>(
    _ object: Root, _ keyPath: KeyPath<Root, Member>
  ) {
    SwiftObservationBox.read(
      unsafeDowncast(object, to: Self.self), unsafeDowncast(keyPath, to: KeyPath<Self, Member>.self)
    )
  }

  /// How Swift's registrar hears of a change of `keyPath` made without its setter (a to-many
  /// proxy's): kept with the property's accessors (``AccessorRegistry``).
  public static func _observationNotifier<Root: KeyValueObservable, Member>(
    for keyPath: KeyPath<Root, Member>
  ) -> AnyObject? {
    TypedObservationNotifier(unsafeDowncast(keyPath, to: KeyPath<Self, Member>.self))
  }

  /// Reports the coming change to the object's Swift registrar (`willSet`, which runs the
  /// `onChange` handlers of the tracking that read the property), before the value is stored
  /// and with no lock held, if a read of the object was ever tracked and the new value differs
  /// from the one `current` reads, as `@Observable` decides (``ObservedEquality``). Returns
  /// what it reported to (not retained: the object holds it), which ``_observedDidSet(_:_:reportedTo:)``
  /// reports the change to after the store.
  @inlinable @inline(__always)
  public static func _observedWillSet<Root: KeyValueObservable, Member>(
    _ object: Root, _ keyPath: KeyPath<Root, Member>, to newValue: Member,
    from current: () -> Member
  ) -> Unmanaged<AnyObject>? {
    guard let box = SwiftObservationBox.existing(of: object),
      ObservedEquality.changes(current(), newValue)
    else { return nil }
    box.willSet(
      unsafeDowncast(object, to: Self.self), unsafeDowncast(keyPath, to: KeyPath<Self, Member>.self)
    )
    return Unmanaged.passUnretained(box)
  }

  /// Reports the change to the object's Swift registrar (`didSet`), after the value is stored
  /// and KVOLite's observers notified, with no lock held.
  @inlinable @inline(__always)
  public static func _observedDidSet<Root: KeyValueObservable, Member>(
    _ object: Root, _ keyPath: KeyPath<Root, Member>, reportedTo registrar: Unmanaged<AnyObject>
  ) {
    registrar._withUnsafeGuaranteedRef {
      unsafeDowncast($0, to: SwiftObservationBox.self).didSet(
        unsafeDowncast(object, to: Self.self),
        unsafeDowncast(keyPath, to: KeyPath<Self, Member>.self))
    }
  }
}
