import KVOLiteLocking

/// A class whose properties can be observed and read by key path, with Apple's key-value
/// observing semantics.
///
/// Adopt it, hold a registrar, and mark the stored properties to observe ``Observed``:
///
///     class Person: KeyValueObservable {
///       let observationRegistrar = ObservationRegistrar()
///       @Observed var firstName = ""
///       @Observed var postalAddress = PostalAddress()
///     }
///
///     let token = person.observe(\.firstName, options: [.old, .new]) { person, change in
///       print(change.oldValue!, "->", change.newValue!)
///     }
///
/// Each ``Observed`` stored property is a key, named after the property, found the first time
/// the class is used (see ``allObservableKeys``); its role comes from its type: another
/// observable object, optional or not, is a to-one relationship; an array of observable
/// objects is a to-many relationship; anything else is an attribute. Declare in
/// ``observableKeys`` only what cannot be found: derived keys and what affects them, a key
/// under another name, a to-many relationship kept by indexed accessors.
///
/// Classes need not be `final`: a subclass inherits its superclass's keys and adds its own,
/// and key paths to a superclass's key work on a subclass instance.
///
/// ## Thread safety
///
/// Observing, cancelling and setting ``Observed`` properties are safe from any thread at once:
/// each object has one lock, which every set and get of an ``Observed`` property takes for a
/// few instructions. A class whose mutable state is all ``Observed`` may therefore be marked
/// `@unchecked Sendable`. Notifications are delivered synchronously, on the thread that made the
/// change, after the change, and never while KVOLite holds a lock.
///
/// ## Lifetime
///
/// Nothing in KVOLite keeps an observer or an observed object alive: the registrar refers to
/// observations, tokens refer to their observation, and an observation refers to its objects
/// weakly. Releasing a token cancels its observation; releasing the observed object ends its
/// observations and makes their tokens inert.
public protocol KeyValueObservable: AnyObject {
  /// The class whose key paths ``observableKeys`` is written with: the class that declares the
  /// table (for a subclass that overrides it, still that first class). Inferred; never written.
  associatedtype KeyRoot: AnyObject = Self

  /// The object's registrar. Declare it as a constant: `let observationRegistrar =
  /// ObservationRegistrar()`.
  var observationRegistrar: ObservationRegistrar { get }

  /// The keys that cannot be found from the class's ``Observed`` properties: derived keys (with
  /// the key paths that affect them), keys under another name, keys notified by hand, to-many
  /// relationships kept by indexed accessors. Empty by default.
  ///
  /// Declare it as `static let` in a final class. In a class meant to be subclassed, declare it
  /// as `class var`, so that a subclass can override it and add its own declarations
  /// (`super.observableKeys + […]`; a declaration on the right replaces the one of the same
  /// name, which is how a subclass changes what affects a derived key). A declaration of an
  /// ``Observed`` property under its own name refines the key found for it (a validation hook,
  /// manual notification); declaring another property under a found key's name is an error
  /// that names both.
  static var observableKeys: ObservableKeys<KeyRoot> { get }

  /// Called by ``value(forKeyPath:)`` for a key this type does not declare; returns the value
  /// to use (a path continues through it when it is an observable object). Foundation's
  /// override point. The default throws ``KeyValueError/unknownKey(key:type:path:suggestion:)``.
  /// Implement it in the type that declares the conformance.
  func value(forUndefinedKey key: String) throws(KeyValueError) -> Any?

  /// Called by ``setValue(_:forKeyPath:)`` and ``setValue(fromText:forKeyPath:)`` (with the
  /// text) for a key this type does not declare. Foundation's override point. The default
  /// throws ``KeyValueError/unknownKey(key:type:path:suggestion:)``.
  func setValue(_ value: Any?, forUndefinedKey key: String) throws(KeyValueError)

  /// Called by ``setValue(_:forKeyPath:)`` when `nil` is set for a key whose type is not
  /// optional (set a default instead, or throw). Foundation's override point. The default
  /// throws ``KeyValueError/nilForNonOptional(path:expected:)``.
  func setNilValueForKey(_ key: String) throws(KeyValueError)

  /// Registers `observer` for changes of `keyPath`, Foundation's way; see
  /// ``addObserver(_:forKeyPath:options:context:)-(_,_,_,_)``'s default implementation, which
  /// does it. Foundation's override point: a class that holds other objects may take the
  /// registration over and pass it on to them (an array controller exposing its arranged
  /// objects), and a key path through an object of that class (`controller.selection.name`)
  /// then hands the rest of the path (`selection.name`) to it, relaying the changes to the
  /// observer of the whole path. Implement it (with both ``removeObserver(_:forKeyPath:)``s) in
  /// the type that declares the conformance, with exactly this signature.
  func addObserver(
    _ observer: any KeyValueObserver, forKeyPath keyPath: String, options: ObservingOptions,
    context: UnsafeMutableRawPointer?
  ) throws(KeyValueError)

  /// Removes the most recent registration of `observer` for `keyPath` with `context`; see the
  /// default implementation. Foundation's override point, as
  /// ``addObserver(_:forKeyPath:options:context:)-(_,_,_,_)`` is.
  func removeObserver(
    _ observer: any KeyValueObserver, forKeyPath keyPath: String, context: UnsafeMutableRawPointer?)

  /// Whether Swift Observation tracks this class's ``Observed`` properties: `true` when the
  /// class that adopts ``KeyValueObservable`` also conforms to `Observation.Observable`. Not to
  /// be implemented: the defaults decide. (See <doc:DeclaringObservableModels>, "Observing with
  /// Swift Observation".)
  static var _tracksSwiftObservation: Bool { get }

  /// Called by the getter of an ``Observed`` property after its read, to report it to Swift Observation; `Root` is always `Self`
  /// (a requirement in `Self` could not be met by a class that is not final). Not to be
  /// implemented or called: for a class that is not `Observable`, the default does nothing and
  /// compiles to nothing; for one that is, it calls Swift's registrar's `access`.
  static func _observedRead<Root: KeyValueObservable, Member>(
    _ object: Root, _ keyPath: KeyPath<Root, Member>)

  /// Called when the accessors of an ``Observed`` property are handed over (its first get or
  /// set on an object; see <doc:Internals>): for an `Observable` class, what tells Swift's
  /// registrar of a change of the property made without its setter; `nil` for any other class.
  /// Not to be implemented or called.
  static func _observationNotifier<Root: KeyValueObservable, Member>(
    for keyPath: KeyPath<Root, Member>
  ) -> AnyObject?

  /// Called by the setter of an ``Observed`` property before the value is stored, with the
  /// value to store and a way to read the one stored (under the object's lock); as
  /// `_observedRead`, calls Swift's registrar's `willSet` for an `Observable` class only, and
  /// then only if the value changes as `@Observable` decides (`==` for an `Equatable` type, `===`
  /// for a class, any set otherwise). Returns what it reported to, for `_observedDidSet`, or
  /// `nil` if it reported nothing.
  static func _observedWillSet<Root: KeyValueObservable, Member>(
    _ object: Root, _ keyPath: KeyPath<Root, Member>, to newValue: Member,
    from current: () -> Member
  ) -> Unmanaged<AnyObject>?

  /// Called by the setter of an ``Observed`` property after the value is stored and its
  /// observers notified, when `_observedWillSet` reported the change to `registrar`; as
  /// `_observedRead`, calls Swift's registrar's `didSet` for an `Observable` class only.
  static func _observedDidSet<Root: KeyValueObservable, Member>(
    _ object: Root, _ keyPath: KeyPath<Root, Member>, reportedTo registrar: Unmanaged<AnyObject>)

  /// Removes the most recent registration of `observer` for `keyPath`, whatever its context;
  /// see the default implementation. Foundation's override point, as
  /// ``addObserver(_:forKeyPath:options:context:)-(_,_,_,_)`` is.
  func removeObserver(_ observer: any KeyValueObserver, forKeyPath keyPath: String)
}

extension KeyValueObservable where KeyRoot == Self {
  /// No declarations: every key is found from the class's ``Observed`` properties.
  public static var observableKeys: ObservableKeys<Self> { ObservableKeys([]) }
}
