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

  /// A readable description, as printed.
  public var description: String {
    switch self {
    case .attribute: "attribute"
    case .toOne: "to-one relationship"
    case .toMany: "to-many relationship"
    case .derived: "derived key"
    }
  }
}
