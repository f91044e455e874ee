/// Why a key path could not be resolved, read, written or observed.
///
/// Every case names the problem precisely enough to print as is: the offending key or path, the
/// type it was looked up on and, where it helps, what was expected. ``description`` is a
/// complete sentence without a trailing period, suitable for `error: …` lines.
public enum KeyValueError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `key` is not declared on `type`. `path` is the part of the key path that resolved before
  /// it (empty at the root); `suggestion` is the closest declared key, if one is close.
  case unknownKey(key: String, type: String, path: String, suggestion: String?)
  /// `key` is not a key of `type` (nor close to one, nor a stored property of it), in a key
  /// path given by name to observe: the error of ``unknownKey(key:type:path:suggestion:)``, with
  /// what a computed property takes to be observed.
  case unknownKeyToObserve(key: String, type: String, path: String)
  /// The key path's syntax is wrong (`""`, `"."`, `"a..b"`, `"@"`, …).
  case malformedKeyPath(path: String, reason: String)
  /// A typed key path that is not made of keys of `type` (its ``Observed`` properties and its
  /// declared keys).
  case undeclaredKeyPath(keyPath: String, type: String)
  /// `key` is declared as automatically notifying, but it is not an ``Observed`` property of
  /// the declared type, so observing it would never fire.
  case notObservable(key: String, type: String)
  /// The key path continues after `key`, which is not a to-one relationship of `type`.
  case notARelationship(key: String, type: String, role: KeyRole)
  /// The key path continues through the to-many relationship `key` without an index or a
  /// collection operator.
  case throughToMany(key: String, type: String)
  /// `operator` is not a collection operator (`@count`, `@sum`, `@avg`, `@min`, `@max`,
  /// `@unionOfObjects`, `@distinctUnionOfObjects`).
  case unknownOperator(operator: String, path: String)
  /// A collection operator in a place where it cannot apply: not after a to-many relationship,
  /// or without the right-hand key path it needs.
  case misplacedOperator(operator: String, path: String, reason: String)
  /// `key` of `type` cannot be set: it is derived, or its property is read-only.
  case notSettable(key: String, type: String, reason: String)
  /// The value given for `path` is not of the expected type.
  case typeMismatch(path: String, expected: String, actual: String)
  /// The number `value` converts to the expected number type only by losing something: a
  /// fraction (8.5 for an `Int`), range (300 for a `UInt8`, 1e308 for a `Float`), or a value
  /// other than 0 and 1 for a `Bool`.
  case notRepresentable(path: String, value: String, expected: String)
  /// `text` does not parse as a value of the expected type.
  case unparsableText(text: String, path: String, expected: String)
  /// `nil` was given for `path`, whose type is not optional.
  case nilForNonOptional(path: String, expected: String)
  /// The value at `path` has a type that cannot be written as text.
  case notTextConvertible(path: String, type: String)
  /// `index` is not a valid index (or insertion point) of the `count` elements at `path`.
  case indexOutOfRange(index: Int, count: Int, path: String)
  /// A to-many mutation was given `elements` elements for `indexes` indexes.
  case countMismatch(path: String, indexes: Int, elements: Int)
  /// A relationship along `path` is `nil`, so the key at its end cannot be set.
  case nilIntermediate(path: String, key: String)
  /// The key's validation hook rejected the value.
  case validationFailed(path: String, reason: String)

  /// A readable description, as printed.
  public var description: String {
    switch self {
    case .unknownKey(let key, let type, let path, let suggestion):
      let location = path.isEmpty ? "" : " (after \"\(path)\")"
      let hint =
        (KeyTable.plainVariableHint(forKey: key, ofTypeNamed: type)
        ?? suggestion.map { "did you mean \"\($0)\"?" }
        ?? KeyTable.declarationHint(forTypeNamed: type)).map { "; \($0)" } ?? ""
      return "\(type) has no key \"\(key)\"\(location)\(hint)"
    case .unknownKeyToObserve(let key, let type, let path):
      let unknown = KeyValueError.unknownKey(key: key, type: type, path: path, suggestion: nil)
      return "\(unknown); if it is a computed property, observe it by typed key path, which finds"
        + " what its getter reads, or declare it in \(type).observableKeys as a derived key"
        + " (.derived(\"\(key)\", \\.\(key))) to observe it by name"
    case .malformedKeyPath(let path, let reason):
      return "malformed key path \"\(path)\": \(reason)"
    case .undeclaredKeyPath(let keyPath, let type):
      return "key path \(keyPath) is not made of keys of \(type) (@Observed properties and"
        + " keys declared in \(type).observableKeys; an optional chain such as \\.sender?.name"
        + " is observed by string key path)"
    case .notObservable(let key, let type):
      return "\"\(key)\" of \(type) is not an @Observed property, so it never notifies: mark it"
        + " @Observed (or declare it with notifiesAutomatically: false and notify manually, or as"
        + " a derived key)"
    case .notARelationship(let key, let type, let role):
      return "\"\(key)\" of \(type) is \(role.description.withArticle), not a to-one relationship,"
        + " so a key path cannot continue after it"
    case .throughToMany(let key, let type):
      return "\"\(key)\" of \(type) is a to-many relationship; continue with an index"
        + " (\(key).0) or a collection operator (\(key).@count)"
    case .unknownOperator(let name, let path):
      return "unknown collection operator \"\(name)\" in \"\(path)\" (known: "
        + CollectionOperator.allCases.map(\.rawValue).joined(separator: ", ") + ")"
    case .misplacedOperator(let name, let path, let reason):
      return "\"\(name)\" in \"\(path)\": \(reason)"
    case .notSettable(let key, let type, let reason):
      return "\"\(key)\" of \(type) cannot be set: \(reason)"
    case .typeMismatch(let path, let expected, let actual):
      return "\"\(path)\" expects \(expected), not \(actual)"
    case .notRepresentable(let path, let value, let expected):
      return "\"\(path)\" expects \(expected), and \(value) cannot be one without losing its value"
    case .unparsableText(let text, let path, let expected):
      return "\"\(path)\" expects \(expected), and \"\(text)\" is not one"
    case .nilForNonOptional(let path, let expected):
      return "\"\(path)\" expects \(expected), which cannot be nil"
    case .notTextConvertible(let path, let type):
      return "\"\(path)\" holds \(type), which cannot be set from text"
    case .indexOutOfRange(let index, let count, let path):
      return
        "index \(index) is out of range for \"\(path)\" (\(count) element\(count == 1 ? "" : "s"))"
    case .countMismatch(let path, let indexes, let elements):
      return
        "\"\(path)\": \(indexes) index\(indexes == 1 ? "" : "es") but \(elements) element\(elements == 1 ? "" : "s")"
    case .nilIntermediate(let path, let key):
      return "cannot set \"\(path)\": \"\(key)\" is nil"
    case .validationFailed(let path, let reason):
      return "invalid value for \"\(path)\": \(reason)"
    }
  }
}

extension String {
  /// "an attribute", "a to-one relationship": a key's role as an error names it.
  var withArticle: String {
    let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    return (first.map { vowels.contains($0) } ?? false ? "an " : "a ") + self
  }
}

/// A readable name for a type: `String?` rather than `Optional<String>`.
func typeName(_ type: Any.Type) -> String {
  let name = String(describing: type)
  if name.hasPrefix("Optional<"), name.hasSuffix(">") {
    return String(name.dropFirst("Optional<".count).dropLast()) + "?"
  }
  return name
}
