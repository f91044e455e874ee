/// The type-erased form of a key declaration, shared by every table.
///
/// A class, so that handing an entry around costs one retain rather than one per field. The
/// closures are made by the generic factories of ``ObservableKey``, which know the types.
final class KeyEntry: @unchecked Sendable {
  // @unchecked: immutable; the closures capture only key paths, metatypes and the
  // declaration's own validation hook.
  let name: String
  /// The declared key path; `nil` for a key found from its ``Observed`` property (the runtime
  /// cannot make the key path of a property-wrapped property; probes learn it, see
  /// ``KeyTable``).
  let keyPath: AnyKeyPath?
  let role: KeyRole
  /// The value type (for a to-one, the related type; for a to-many, the array type).
  let valueType: Any.Type
  /// The exact type of the property (`Target?` for an optional relationship).
  let storedType: Any.Type
  let isOptional: Bool
  let notifiesAutomatically: Bool
  /// Reads the value, boxed as it is (an optional stays an optional inside the box).
  let value: (AnyObject) -> Any
  /// For to-one relationships: the related object, or `nil`.
  var related: ((AnyObject) -> (any KeyValueObservable)?)? = nil
  /// For to-one relationships: the related type's keys (resolved lazily, so that two types may
  /// refer to each other).
  var relatedKeys: (() -> KeyTable)? = nil
  /// For to-many relationships: the elements.
  var elements: ((AnyObject) -> [Any])? = nil
  /// For to-many relationships: the number of elements (`@count` without boxing them all).
  var elementCount: ((AnyObject) -> Int)? = nil
  /// For to-many relationships: the element at an index, or `nil` out of range (`items.3`
  /// without boxing them all), with the number of elements, both from one read of the array
  /// (two reads could tell of an element missing at an index that the count then contains).
  var element: ((AnyObject, Int) -> (element: Any?, count: Int))? = nil
  /// For to-many relationships, and attributes that are arrays: applies a mutation given
  /// type-erased elements (checked) to the ``Observed`` storage at the given address of the
  /// object. Indexes `nil` mean the end of the array as it is then, for an insertion, and
  /// every index, for a removal.
  var mutateErased:
    (
      (AnyObject, Int, UnsafeMutableRawPointer, String, KeyValueChangeKind, [Int]?, [Any])
        throws(KeyValueError) -> Void
    )? = nil
  /// For to-many relationships kept by indexed accessors: checks and applies a mutation given
  /// type-erased elements, notifying around it (see ``IndexedAccessors``).
  var mutateThroughAccessors:
    ((AnyObject, String, KeyValueChangeKind, [Int], [Any]) throws(KeyValueError) -> Void)? = nil
  /// For to-many relationships of observable objects: the elements' keys.
  var elementKeys: (() -> KeyTable)? = nil
  /// For derived keys: the key paths (relative to the declaring type) that affect the value,
  /// exactly (Foundation's `keyPathsForValuesAffecting…`; empty: nothing does); `nil` when the
  /// inputs are found by reading the getter.
  var affectedBy: [String]?
  /// Makes a direct record for a string observation of this key, with type-erased values.
  var makeErasedRecord:
    (
      (RegistrarContext, Int, ObservingOptions, @escaping (KeyValueChange<Any?>) -> Void) -> Trigger
    )? = nil
  /// Type-checks, validates and stores a value; `nil` if the key cannot be set.
  var assign: ((AnyObject, Any?, String) throws(KeyValueError) -> Void)? = nil
  /// Type-checks and validates a value without storing it; returns what would be stored (the
  /// validation hook may replace it). `nil` if the key cannot be set.
  var check: ((Any?, String) throws(KeyValueError) -> Any)? = nil
  /// Whether the declaration gave a validation hook (``check`` runs it).
  var hasValidator = false
  /// For a stored key: the class whose property it is (the root of its key path). An object of
  /// a subclass may override the property, so that what its getter returns is not what the
  /// storage holds.
  var declaringClass: ObjectIdentifier?
  /// For a key found from its ``Observed`` property: its accessors, once a get or a set of the
  /// property handed them over (see ``AccessorRegistry``).
  var accessors: AnyAccessorSlot?
  /// Stores a value that `check` returned, with no further checks.
  var store: ((AnyObject, Any) -> Void)? = nil
  /// Parses, validates and stores text; `nil` if the value type has no text form.
  var assignText: ((AnyObject, String, String) throws(KeyValueError) -> Void)? = nil

  init(
    name: String, keyPath: AnyKeyPath?, role: KeyRole, valueType: Any.Type, storedType: Any.Type,
    isOptional: Bool = false, notifiesAutomatically: Bool, value: @escaping (AnyObject) -> Any
  ) {
    self.name = name
    self.keyPath = keyPath
    self.role = role
    self.valueType = valueType
    self.storedType = storedType
    self.isOptional = isOptional
    self.notifiesAutomatically = notifiesAutomatically
    self.value = value
  }

  /// Whether the value a set stores is the value `object`'s getter returns: `object` is of the
  /// class whose property this key is, not of a subclass that could override the getter.
  func readsStorage(of object: AnyObject) -> Bool {
    declaringClass.map { $0 == ObjectIdentifier(type(of: object)) } ?? true
  }

  /// Reads the value boxed for display: an optional's `nil` is `nil`, not `Optional.none`.
  func displayValue(of object: AnyObject) -> Any? { KeyEntry.box(value(object)) }

  /// Boxes a value, flattening an optional so that `nil` is `nil` at every depth. Whether the
  /// value is an optional is looked up by its type (``OptionalTypes``), not cast each time.
  static func box(_ value: Any) -> Any? {
    guard OptionalTypes.contains(type(of: value)),
      let optional = value as? any OptionalProtocol
    else { return value }
    return optional.flattened
  }

  /// Makes the `makeErasedRecord` closure for a stored key of `Root` holding a `Value`: a
  /// direct record whose handler boxes the values (optionals flattened).
  static func erasedRecordMaker<Root: AnyObject, Value>(_: Root.Type, _: Value.Type)
    -> (RegistrarContext, Int, ObservingOptions, @escaping (KeyValueChange<Any?>) -> Void) ->
    Trigger
  {
    { context, index, options, handler in
      TypedRecord<Root, Value>(context: context, keyIndex: index, options: options) { _, change in
        handler(
          KeyValueChange(
            kind: change.kind, oldValue: change.oldValue.map { KeyEntry.box($0) },
            newValue: change.newValue.map { KeyEntry.box($0) }, indexes: change.indexes,
            isPrior: change.isPrior))
      }
    }
  }

  /// Makes the `mutateErased` closure of an array of `Element`s.
  static func erasedMutator<Element>(_: Element.Type)
    -> (AnyObject, Int, UnsafeMutableRawPointer, String, KeyValueChangeKind, [Int]?, [Any])
    throws(KeyValueError) -> Void
  {
    { object, index, storage, path, kind, indexes, elements throws(KeyValueError) in
      var typed: [Element] = []
      for element in elements {
        guard let element = element as? Element else {
          throw .typeMismatch(
            path: path, expected: typeName(Element.self), actual: typeName(type(of: element)))
        }
        typed.append(element)
      }
      try ToManyMutation<Element>.apply(
        to: object, registrar: (object as! any KeyValueObservable).observationRegistrar, key: index,
        storage: storage.assumingMemoryBound(to: Observed<[Element]>.self), path: path
      ) { current in
        // Without indexes, the end or every element, of the array as it is under the lock.
        let at =
          indexes
          ?? (kind == .insertion
            ? Array(current.count..<current.count + typed.count) : Array(current.indices))
        return ToManyMutation(kind: kind, indexes: at, elements: typed)
      }
    }
  }

  /// Makes the key settable through a writable key path: `assign`, `check` and `store` (none if
  /// the key path is read-only).
  func makeSettable<Root: AnyObject, Value>(
    _ keyPath: KeyPath<Root, Value>, validate: ((Value) throws -> Value)?
  ) {
    assign = KeyEntry.assigner(keyPath, validate: validate)
    hasValidator = validate != nil
    guard let writable = keyPath as? ReferenceWritableKeyPath<Root, Value> else { return }
    check = { value, path throws(KeyValueError) in
      try KeyEntry.validated(
        try KeyEntry.cast(value, to: Value.self, path: path), by: validate, path: path)
    }
    store = { object, value in
      unsafeDowncast(object, to: Root.self)[keyPath: writable] = value as! Value
    }
  }

  /// Makes the `assign` closure for a writable key path: casts, validates, then stores through
  /// the property (so an ``Observed`` property notifies exactly once). Nothing is stored when a
  /// check fails.
  static func assigner<Root: AnyObject, Value>(
    _ keyPath: KeyPath<Root, Value>, validate: ((Value) throws -> Value)?
  ) -> ((AnyObject, Any?, String) throws(KeyValueError) -> Void)? {
    guard let writable = keyPath as? ReferenceWritableKeyPath<Root, Value> else { return nil }
    return { object, value, path throws(KeyValueError) in
      let typed = try cast(value, to: Value.self, path: path)
      unsafeDowncast(object, to: Root.self)[keyPath: writable] = try validated(
        typed, by: validate, path: path)
    }
  }

  /// Makes the `assignText` closure for a writable key path of a text-convertible type.
  static func textAssigner<Root: AnyObject, Value: KeyValueTextConvertible>(
    _ keyPath: KeyPath<Root, Value>, validate: ((Value) throws -> Value)?
  ) -> ((AnyObject, String, String) throws(KeyValueError) -> Void)? {
    guard let writable = keyPath as? ReferenceWritableKeyPath<Root, Value> else { return nil }
    return { object, text, path throws(KeyValueError) in
      guard let typed = Value(keyValueText: text) else {
        throw .unparsableText(text: text, path: path, expected: describeExpected(Value.self))
      }
      unsafeDowncast(object, to: Root.self)[keyPath: writable] = try validated(
        typed, by: validate, path: path)
    }
  }

  private static func validated<Value>(
    _ value: Value, by validate: ((Value) throws -> Value)?, path: String
  ) throws(KeyValueError) -> Value {
    guard let validate else { return value }
    do {
      return try validate(value)
    } catch let error as KeyValueError {
      throw error
    } catch {
      throw .validationFailed(path: path, reason: String(describing: error))
    }
  }

  /// Casts a boxed value to `Value`, with errors that name what was expected.
  static func cast<Value>(_ value: Any?, to _: Value.Type, path: String) throws(KeyValueError)
    -> Value
  {
    guard let value else {
      if let optional = Value.self as? any OptionalProtocol.Type {
        return optional.none as! Value
      }
      throw .nilForNonOptional(path: path, expected: typeName(Value.self))
    }
    if let typed = value as? Value { return typed }
    // A number of another kind converts where its value is representable, as Foundation's
    // NSNumber does: 8 for a Double, 1.0 for an Int, 1 for a Bool.
    let target = (Value.self as? any OptionalProtocol.Type)?.wrappedType ?? Value.self
    switch NumberConversion.convert(value, to: target) {
    case .converted(let converted):
      if let typed = converted as? Value { return typed }
    case .notRepresentable:
      throw .notRepresentable(
        path: path, value: String(describing: value), expected: typeName(Value.self))
    case .notANumber: break
    }
    throw .typeMismatch(
      path: path, expected: typeName(Value.self), actual: typeName(type(of: value)))
  }

  /// "a whole number (Int)", "a number (Double)", "true or false": what text is expected.
  static func describeExpected(_ type: Any.Type) -> String {
    let name = typeName(type)
    let base = name.hasSuffix("?") ? String(name.dropLast()) : name
    let optional = name.hasSuffix("?") ? " (or nil)" : ""
    switch base {
    case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64":
      return "a whole number (\(base))\(optional)"
    case "Double", "Float", "Decimal": return "a number (\(base))\(optional)"
    case "Bool": return "true or false\(optional)"
    case "String": return "text\(optional)"
    default: return "a \(base)\(optional)"
    }
  }
}

/// Lets `KeyEntry` see through optionals of any wrapped type.
protocol OptionalProtocol {
  var flattened: Any? { get }
  static var none: Self { get }
  /// The type an optional of this type wraps.
  static var wrappedType: Any.Type { get }
}

extension Optional: OptionalProtocol {
  static var wrappedType: Any.Type { Wrapped.self }
  var flattened: Any? {
    switch self {
    case .none: nil
    case .some(let wrapped): KeyEntry.box(wrapped)
    }
  }
}
