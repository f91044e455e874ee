/// Why a key path could not be resolved, read, written or observed.
///
/// Every case names the problem precisely enough to print as is: the offending key or path, the
/// type it was looked up on and, where it helps, what was expected. ``description`` is a
/// complete sentence without a trailing period, suitable for `error: …` lines.
public enum KeyValueError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `key` is not declared on `type`. `path` is the part of the key path that resolved before
  /// it (empty at the root); `suggestion` is the closest declared key, if one is close.
  case unknownKey(key: String, type: String, path: String, suggestion: String?)
  /// The key path's syntax is wrong (`""`, `"."`, `"a..b"`, `"@"`, …).
  case malformedKeyPath(path: String, reason: String)
  /// A typed key path that is not made of declared keys of `type`.
  case undeclaredKeyPath(keyPath: String, type: String)
  /// `key` is declared as automatically notifying, but it is not an ``Observed`` property of
  /// the declared type, so observing it would never fire.
  case notObservable(key: String, type: String)
  /// The key path continues after `key`, which is not a to-one relationship of `type`.
  case notARelationship(key: String, type: String, role: KeyRole)

  public var description: String {
    switch self {
    case .unknownKey(let key, let type, let path, let suggestion):
      let location = path.isEmpty ? "" : " (after \"\(path)\")"
      let hint = suggestion.map { "; did you mean \"\($0)\"?" } ?? ""
      return "\(type) has no key \"\(key)\"\(location)\(hint)"
    case .malformedKeyPath(let path, let reason):
      return "malformed key path \"\(path)\": \(reason)"
    case .undeclaredKeyPath(let keyPath, let type):
      return "key path \(keyPath) is not made of keys declared in \(type).observableKeys"
        + " (an optional chain such as \\.sender?.name is observed by string key path)"
    case .notObservable(let key, let type):
      return "\"\(key)\" of \(type) is not an @Observed property, so it never notifies"
        + " (declare it with notifiesAutomatically: false and notify manually, or as a derived key)"
    case .notARelationship(let key, let type, let role):
      return "\"\(key)\" of \(type) is \(role.description.withArticle), not a to-one relationship,"
        + " so a key path cannot continue after it"
    }
  }
}

extension String {
  /// "an attribute", "a to-one relationship".
  fileprivate var withArticle: String {
    let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    return (first.map { vowels.contains($0) } ?? false ? "an " : "a ") + self
  }
}
