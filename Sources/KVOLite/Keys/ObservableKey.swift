/// The role a key plays in its type, as key-value coding understands it.
public enum KeyRole: Sendable, Hashable, CustomStringConvertible {
  /// A plain value: a string, a number, an enum, a value type.
  case attribute
  /// A reference to another observable object (possibly optional). String key paths continue
  /// through it.
  case toOne
  /// An array of objects or values.
  case toMany
  /// A computed value, declared with the key paths that affect it.
  case derived

  public var description: String {
    switch self {
    case .attribute: "attribute"
    case .toOne: "to-one relationship"
    case .toMany: "to-many relationship"
    case .derived: "derived key"
    }
  }
}

/// The declaration of one key of an observable type: its name, its typed key path and its role.
///
/// Declarations are made once per type, in ``KeyValueObservable/observableKeys``:
///
///     static let observableKeys: ObservableKeys<Person> = [
///       .attribute("firstName", \.firstName),
///       .toOne("postalAddress", \.postalAddress),
///     ]
///
/// An attribute or relationship must be an ``Observed`` property (or send its notifications
/// manually): a declared key that never notifies cannot be detected and would never fire.
public struct ObservableKey<Root: AnyObject>: @unchecked Sendable {
  // @unchecked: the stored closures capture only key paths and metatypes, which are immutable.
  let entry: KeyEntry

  /// The key's name, used by string key paths.
  public var name: String { entry.name }
  /// The key's typed key path.
  public var keyPath: PartialKeyPath<Root> { entry.keyPath as! PartialKeyPath<Root> }
  /// The key's role.
  public var role: KeyRole { entry.role }

  init(entry: KeyEntry) { self.entry = entry }

  /// An attribute: a value that is replaced as a whole when set.
  ///
  /// - Parameters:
  ///   - name: The key's name in string key paths.
  ///   - keyPath: The property; normally an ``Observed`` property.
  ///   - notifiesAutomatically: `false` turns automatic notification off for this key: sets
  ///     then notify nobody, and the type sends ``KeyValueObservable/willChangeValue(for:)`` /
  ///     ``KeyValueObservable/didChangeValue(for:)`` itself. `.initial` notifications are
  ///     still sent.
  public static func attribute<Value>(
    _ name: String, _ keyPath: KeyPath<Root, Value>, notifiesAutomatically: Bool = true
  ) -> ObservableKey {
    ObservableKey(
      entry: KeyEntry(
        name: name, keyPath: keyPath, role: .attribute, valueType: Value.self,
        storedType: Value.self, notifiesAutomatically: notifiesAutomatically,
        value: { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] },
        stampKeyIndex: KeyEntry.stamper(Value.self)))
  }

  /// A to-one relationship to another observable object.
  public static func toOne<Target: KeyValueObservable>(
    _ name: String, _ keyPath: KeyPath<Root, Target>, notifiesAutomatically: Bool = true
  ) -> ObservableKey {
    ObservableKey(
      entry: KeyEntry(
        name: name, keyPath: keyPath, role: .toOne, valueType: Target.self,
        storedType: Target.self, notifiesAutomatically: notifiesAutomatically,
        value: { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] },
        stampKeyIndex: KeyEntry.stamper(Target.self),
        related: { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] },
        relatedKeys: { Target.observableKeys.table }))
  }

  /// An optional to-one relationship. Key paths through it read as `nil` while it is `nil`, and
  /// observations through it are wired automatically when an object appears.
  public static func toOne<Target: KeyValueObservable>(
    _ name: String, _ keyPath: KeyPath<Root, Target?>, notifiesAutomatically: Bool = true
  ) -> ObservableKey {
    ObservableKey(
      entry: KeyEntry(
        name: name, keyPath: keyPath, role: .toOne, valueType: Target.self,
        storedType: Target?.self, isOptional: true, notifiesAutomatically: notifiesAutomatically,
        value: { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] as Any },
        stampKeyIndex: KeyEntry.stamper(Target?.self),
        related: { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] },
        relatedKeys: { Target.observableKeys.table }))
  }
}

/// The type-erased form of a key declaration, shared by every table.
///
/// A class, so that handing an entry around costs one retain rather than one per field.
final class KeyEntry: @unchecked Sendable {
  // @unchecked: immutable; the closures capture only key paths and metatypes.
  let name: String
  let keyPath: AnyKeyPath
  let role: KeyRole
  let valueType: Any.Type
  /// The exact type of the property (`Target?` for an optional relationship).
  let storedType: Any.Type
  let isOptional: Bool
  let notifiesAutomatically: Bool
  /// Reads the value, boxed as it is (an optional stays an optional inside the box).
  let value: (AnyObject) -> Any
  /// Writes the key's index into an ``Observed`` storage of the property's type.
  let stampKeyIndex: ((UnsafeMutableRawPointer, Int32) -> Void)?
  /// For to-one relationships: the related object, or `nil`.
  let related: ((AnyObject) -> (any KeyValueObservable)?)?
  /// For to-one relationships: the related type's keys (resolved lazily, so that two types may
  /// refer to each other).
  let relatedKeys: (() -> KeyTable)?

  init(
    name: String, keyPath: AnyKeyPath, role: KeyRole, valueType: Any.Type, storedType: Any.Type,
    isOptional: Bool = false, notifiesAutomatically: Bool, value: @escaping (AnyObject) -> Any,
    stampKeyIndex: ((UnsafeMutableRawPointer, Int32) -> Void)? = nil,
    related: ((AnyObject) -> (any KeyValueObservable)?)? = nil,
    relatedKeys: (() -> KeyTable)? = nil
  ) {
    self.name = name
    self.keyPath = keyPath
    self.role = role
    self.valueType = valueType
    self.storedType = storedType
    self.isOptional = isOptional
    self.notifiesAutomatically = notifiesAutomatically
    self.value = value
    self.stampKeyIndex = stampKeyIndex
    self.related = related
    self.relatedKeys = relatedKeys
  }

  /// Makes the `stampKeyIndex` closure for an ``Observed`` storage of `Value`.
  static func stamper<Value>(_: Value.Type) -> (UnsafeMutableRawPointer, Int32) -> Void {
    { storage, index in
      storage.assumingMemoryBound(to: Observed<Value>.self).pointee.keyIndex = index
    }
  }

  /// Reads the value boxed for display: an optional's `nil` is `nil`, not `Optional.none`.
  func displayValue(of object: AnyObject) -> Any? { KeyEntry.box(value(object)) }

  /// The name of the value's type, for error messages.
  var valueTypeName: String { String(describing: valueType) }

  /// Boxes a value, flattening an optional so that `nil` is `nil` at every depth.
  static func box<Value>(_ value: Value) -> Any? {
    if let optional = value as? any OptionalProtocol { return optional.flattened }
    return value
  }
}

/// Lets `KeyEntry.box` see through optionals of any wrapped type.
protocol OptionalProtocol {
  var flattened: Any? { get }
}

extension Optional: OptionalProtocol {
  var flattened: Any? {
    switch self {
    case .none: nil
    case .some(let wrapped): KeyEntry.box(wrapped)
    }
  }
}
