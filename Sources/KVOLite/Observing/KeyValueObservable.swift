import KVOLiteLocking

/// A class whose properties can be observed and read by key path, with Apple's key-value
/// observing semantics.
///
/// Adopt it with a registrar, a table of keys, and ``Observed`` properties:
///
///     final class Person: KeyValueObservable {
///       let observationRegistrar = ObservationRegistrar()
///       static let observableKeys: ObservableKeys<Person> = [
///         .attribute("firstName", \.firstName),
///         .toOne("postalAddress", \.postalAddress),
///       ]
///       @Observed var firstName = ""
///       @Observed var postalAddress = PostalAddress()
///     }
///
///     let token = try person.observe(\.firstName, options: [.old, .new]) { person, change in
///       print(change.oldValue!, "->", change.newValue!)
///     }
///
/// Conforming types must be `final` (the key table is typed by `Self`).
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
  /// The object's registrar. Declare it as a constant: `let observationRegistrar =
  /// ObservationRegistrar()`.
  var observationRegistrar: ObservationRegistrar { get }

  /// The type's declared keys, which string key paths and multi-hop typed key paths resolve
  /// through. Declare it as `static let`.
  static var observableKeys: ObservableKeys<Self> { get }

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
}
