/// One key of an observable class: its name, its typed key path and its role.
///
/// ``Observed`` properties are keys without a declaration. Declarations, in
/// ``KeyValueObservable/observableKeys``, are for what cannot be found:
///
///     static let observableKeys: ObservableKeys<Person> = [
///       .derived("fullName", \.fullName, affectedBy: ["firstName", "lastName"]),
///       .attribute("status", \.status, notifiesAutomatically: false),
///     ]
///
/// A declared attribute or relationship must be an ``Observed`` property (or be declared with
/// `notifiesAutomatically: false` and notified by hand); observing one that is neither throws
/// ``KeyValueError/notObservable(key:type:)``. Declared under the name of an ``Observed``
/// property, it refines that property's key (adding a validation hook, say); under another
/// name, it is another name of the property's key. A key is settable by key-value coding when
/// its key path is writable; an attribute of a ``KeyValueTextConvertible`` type can also be set
/// from text.
public struct ObservableKey<Root: AnyObject>: @unchecked Sendable {
  // @unchecked: the entry is immutable.
  let entry: KeyEntry

  /// The key's name, used by string key paths.
  public var name: String { entry.name }
  /// The key's typed key path as declared (rooted at `Root`, or at the subclass that declares
  /// it); `nil` for a key found from its ``Observed`` property, whose key path the runtime
  /// cannot make.
  public var keyPath: AnyKeyPath? { entry.keyPath }
  /// The key's role.
  public var role: KeyRole { entry.role }

  init(entry: KeyEntry) { self.entry = entry }

  /// An attribute: a value that is replaced as a whole when set.
  ///
  /// - Parameters:
  ///   - name: The key's name in string key paths.
  ///   - keyPath: The property; normally an ``Observed`` property. Settable by key-value coding
  ///     if the key path is writable.
  ///   - notifiesAutomatically: `false` turns automatic notification off for this key: sets
  ///     then notify nobody, and the type sends ``KeyValueObservable/willChangeValue(for:)`` /
  ///     ``KeyValueObservable/didChangeValue(for:)`` itself. `.initial` notifications are
  ///     still sent.
  ///   - validate: Called with every value set by key-value coding, before it is stored: return
  ///     the value (or a coerced one), or throw to reject it. Sets through the property itself
  ///     are not validated.
  public static func attribute<Value>(
    _ name: String, _ keyPath: KeyPath<Root, Value>, notifiesAutomatically: Bool = true,
    validate: ((Value) throws -> Value)? = nil
  ) -> ObservableKey {
    let entry = stored(name, keyPath, role: .attribute, notifiesAutomatically)
    entry.makeSettable(keyPath, validate: validate)
    return ObservableKey(entry: entry)
  }

  /// An attribute of a type with a text form, which can also be set from text.
  public static func attribute<Value: KeyValueTextConvertible>(
    _ name: String, _ keyPath: KeyPath<Root, Value>, notifiesAutomatically: Bool = true,
    validate: ((Value) throws -> Value)? = nil
  ) -> ObservableKey {
    let entry = stored(name, keyPath, role: .attribute, notifiesAutomatically)
    entry.makeSettable(keyPath, validate: validate)
    entry.assignText = KeyEntry.textAssigner(keyPath, validate: validate)
    return ObservableKey(entry: entry)
  }

  /// A to-one relationship to another observable object.
  public static func toOne<Target: KeyValueObservable>(
    _ name: String, _ keyPath: KeyPath<Root, Target>, notifiesAutomatically: Bool = true
  ) -> ObservableKey {
    let entry = stored(name, keyPath, role: .toOne, notifiesAutomatically, valueType: Target.self)
    entry.related = { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] }
    entry.relatedKeys = { KeyTable.of(Target.self) }
    entry.makeSettable(keyPath, validate: nil)
    return ObservableKey(entry: entry)
  }

  /// An optional to-one relationship. Key paths through it read as `nil` while it is `nil`, and
  /// observations through it are wired automatically when an object appears.
  public static func toOne<Target: KeyValueObservable>(
    _ name: String, _ keyPath: KeyPath<Root, Target?>, notifiesAutomatically: Bool = true
  ) -> ObservableKey {
    let entry = stored(
      name, keyPath, role: .toOne, notifiesAutomatically, valueType: Target.self, isOptional: true)
    entry.related = { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] }
    entry.relatedKeys = { KeyTable.of(Target.self) }
    entry.makeSettable(keyPath, validate: nil)
    return ObservableKey(entry: entry)
  }

  /// A to-many relationship: an array. Mutate it through
  /// ``KeyValueObservable/mutableArrayValue(for:)`` to notify insertions, removals and
  /// replacements with their indexes; assigning the whole array is a setting.
  public static func toMany<Element>(
    _ name: String, _ keyPath: KeyPath<Root, [Element]>, notifiesAutomatically: Bool = true
  ) -> ObservableKey {
    let entry = stored(name, keyPath, role: .toMany, notifiesAutomatically)
    entry.elements = { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] }
    entry.elementCount = { unsafeDowncast($0, to: Root.self)[keyPath: keyPath].count }
    entry.element = { object, index in
      let elements = unsafeDowncast(object, to: Root.self)[keyPath: keyPath]
      return (elements.indices.contains(index) ? elements[index] : nil, elements.count)
    }
    entry.makeSettable(keyPath, validate: nil)
    return ObservableKey(entry: entry)
  }

  /// A to-many relationship to observable objects, whose keys string key paths can reach by
  /// index (`contents.0.title`) and collection operators (`contents.@sum.weight`).
  public static func toMany<Element: KeyValueObservable>(
    _ name: String, _ keyPath: KeyPath<Root, [Element]>, notifiesAutomatically: Bool = true
  ) -> ObservableKey {
    let entry = stored(name, keyPath, role: .toMany, notifiesAutomatically)
    entry.elements = { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] }
    entry.elementCount = { unsafeDowncast($0, to: Root.self)[keyPath: keyPath].count }
    entry.element = { object, index in
      let elements = unsafeDowncast(object, to: Root.self)[keyPath: keyPath]
      return (elements.indices.contains(index) ? elements[index] : nil, elements.count)
    }
    entry.elementKeys = { KeyTable.of(Element.self) }
    entry.makeSettable(keyPath, validate: nil)
    return ObservableKey(entry: entry)
  }

  /// A derived key: a computed value, observed and read by name (string key paths, key-value
  /// coding) and by typed key path.
  ///
  /// - With `affectedBy`, it is affected by exactly those key paths (relative to `Root`), as
  ///   Foundation's `keyPathsForValuesAffecting<Key>` declares it: observing it observes all of
  ///   them, including chains and other derived keys, and nothing else (a key the getter reads
  ///   but the list leaves out does not notify: a trigger key that batches several edits into
  ///   one notification relies on it). `affectedBy: []` declares that nothing affects it, as
  ///   Foundation's empty set does (only ``KeyValueObservable/willChangeValue(for:)`` and
  ///   ``KeyValueObservable/didChangeValue(for:)`` of the key itself notify).
  /// - Without `affectedBy`, its inputs are found by reading it: the ``Observed`` keys (of any
  ///   object) its getter reads, found again after each change (see <doc:DeclaringObservableModels>).
  ///
  /// One change gives one notification, with the derived key's own old and new values. A key
  /// path may reach a key of every element of a to-many relationship (`books.pages`, or
  /// `books.@sum.pages`): the derived key then also notifies when any element's key changes,
  /// and its old value is the one delivered last (see <doc:ObservingChanges>).
  public static func derived<Value>(
    _ name: String, _ keyPath: KeyPath<Root, Value>, affectedBy: [String]? = nil
  ) -> ObservableKey {
    derivedValue(name, keyPath, affectedBy: affectedBy)
  }

  private static func derivedValue<Value>(
    _ name: String, _ keyPath: KeyPath<Root, Value>, affectedBy: [String]?
  ) -> ObservableKey {
    let entry = KeyEntry(
      name: name, keyPath: keyPath, role: .derived, valueType: Value.self, storedType: Value.self,
      notifiesAutomatically: false, value: { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] })
    entry.affectedBy = affectedBy
    return ObservableKey(entry: entry)
  }

  /// A derived key whose value is another observable object: key paths continue through it
  /// (`primary.firstName`), and observations of such paths re-wire whenever the keys in
  /// `affectedBy` change (without it, the keys its getter reads), as they do for a to-one
  /// relationship.
  public static func derived<Target: KeyValueObservable>(
    _ name: String, _ keyPath: KeyPath<Root, Target>, affectedBy: [String]? = nil
  ) -> ObservableKey {
    let key = derivedValue(name, keyPath, affectedBy: affectedBy)
    key.entry.related = { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] }
    key.entry.relatedKeys = { KeyTable.of(Target.self) }
    return key
  }

  /// A derived key whose value is an observable object or `nil`; see
  /// ``derived(_:_:affectedBy:)-(_,KeyPath<Root,Target>,_)``. Key paths through it read as
  /// `nil` while it is `nil`.
  public static func derived<Target: KeyValueObservable>(
    _ name: String, _ keyPath: KeyPath<Root, Target?>, affectedBy: [String]? = nil
  ) -> ObservableKey {
    let key = derivedValue(name, keyPath, affectedBy: affectedBy)
    key.entry.related = { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] }
    key.entry.relatedKeys = { KeyTable.of(Target.self) }
    return key
  }

  private static func stored<Value>(
    _ name: String, _ keyPath: KeyPath<Root, Value>, role: KeyRole, _ notifiesAutomatically: Bool,
    valueType: Any.Type = Value.self, isOptional: Bool = false
  ) -> KeyEntry {
    let entry = KeyEntry(
      name: name, keyPath: keyPath, role: role, valueType: valueType, storedType: Value.self,
      isOptional: isOptional, notifiesAutomatically: notifiesAutomatically,
      value: { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] })
    entry.declaringClass = ObjectIdentifier(Root.self)
    entry.makeErasedRecord = KeyEntry.erasedRecordMaker(Root.self, Value.self)
    // An array, of objects or of values, can be mutated by index (`mutableArrayValue`).
    entry.mutateErased = (Value.self as? any MutableArrayValue.Type)?.erasedMutator
    return entry
  }
}
