/// Errors of a part of a key path, restated for the whole path.
extension KeyValueError {
  /// An error of an operator's right-hand path, restated for the whole path `whole`, whose part
  /// up to and including the operator is `prefix`.
  func restated(prefix: String, whole: String) -> KeyValueError {
    switch self {
    case .unknownKey(let key, let type, let path, let suggestion):
      .unknownKey(
        key: key, type: type, path: Self.join(prefix, path), suggestion: suggestion)
    case .malformedKeyPath(_, let reason): .malformedKeyPath(path: whole, reason: reason)
    case .unknownOperator(let name, _): .unknownOperator(operator: name, path: whole)
    case .misplacedOperator(let name, _, let reason):
      .misplacedOperator(operator: name, path: whole, reason: reason)
    default: self
    }
  }

  /// An error of the rest of a key path, which an object reached by the path threw for that
  /// rest (see ``KeyValuePath/Component/rest(_:before:)``), restated for the whole path, whose
  /// part before the rest is `before`: every path the error names is relative to that object,
  /// a part of the rest or the rest itself.
  func continued(after before: String) -> KeyValueError {
    let join = { (path: String) in Self.join(before, path) }
    return switch self {
    case .unknownKey(let key, let type, let path, let suggestion):
      .unknownKey(key: key, type: type, path: join(path), suggestion: suggestion)
    case .unknownKeyToObserve(let key, let type, let path):
      .unknownKeyToObserve(key: key, type: type, path: join(path))
    case .malformedKeyPath(let path, let reason):
      .malformedKeyPath(path: join(path), reason: reason)
    case .unknownOperator(let name, let path): .unknownOperator(operator: name, path: join(path))
    case .misplacedOperator(let name, let path, let reason):
      .misplacedOperator(operator: name, path: join(path), reason: reason)
    case .typeMismatch(let path, let expected, let actual):
      .typeMismatch(path: join(path), expected: expected, actual: actual)
    case .notRepresentable(let path, let value, let expected):
      .notRepresentable(path: join(path), value: value, expected: expected)
    case .unparsableText(let text, let path, let expected):
      .unparsableText(text: text, path: join(path), expected: expected)
    case .nilForNonOptional(let path, let expected):
      .nilForNonOptional(path: join(path), expected: expected)
    case .notTextConvertible(let path, let type): .notTextConvertible(path: join(path), type: type)
    case .indexOutOfRange(let index, let count, let path):
      .indexOutOfRange(index: index, count: count, path: join(path))
    case .countMismatch(let path, let indexes, let elements):
      .countMismatch(path: join(path), indexes: indexes, elements: elements)
    case .nilIntermediate(let path, let key): .nilIntermediate(path: join(path), key: key)
    case .validationFailed(let path, let reason):
      .validationFailed(path: join(path), reason: reason)
    case .undeclaredKeyPath, .notObservable, .notARelationship, .throughToMany, .notSettable:
      self
    }
  }

  /// `prefix.path`, either part possibly empty.
  private static func join(_ prefix: String, _ path: String) -> String {
    prefix.isEmpty ? path : path.isEmpty ? prefix : prefix + "." + path
  }
}
