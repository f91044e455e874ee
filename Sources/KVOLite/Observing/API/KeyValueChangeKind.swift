/// How a value changed: Foundation's `NSKeyValueChange`.
public enum KeyValueChangeKind: UInt8, Sendable, Hashable, CustomStringConvertible {
  /// The value was replaced as a whole (any set, including sets of an equal value).
  case setting = 1
  /// Elements were inserted into a to-many relationship at ``KeyValueChange/indexes``.
  case insertion = 2
  /// Elements were removed from a to-many relationship at ``KeyValueChange/indexes``.
  case removal = 3
  /// Elements of a to-many relationship were replaced at ``KeyValueChange/indexes``.
  case replacement = 4

  /// A readable description, as printed.
  public var description: String {
    switch self {
    case .setting: "setting"
    case .insertion: "insertion"
    case .removal: "removal"
    case .replacement: "replacement"
    }
  }
}
