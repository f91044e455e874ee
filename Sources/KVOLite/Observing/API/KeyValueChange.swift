import Foundation

/// One notification: what changed, and the values the observer asked for.
///
/// `oldValue` is present only when the observation asked for ``ObservingOptions/old`` (and the
/// change is not an insertion); `newValue` only when it asked for ``ObservingOptions/new`` (and
/// the notification is neither a prior one nor a removal). For an optional property the values
/// are doubly optional, as in Foundation: `.some(nil)` means "asked for, and the value is nil".
///
/// String key path observations deliver `KeyValueChange<Any?>`: the values are type-erased, and
/// print as the underlying values.
public struct KeyValueChange<Value> {
  /// How the value changed.
  public var kind: KeyValueChangeKind
  /// The value before the change, if requested with ``ObservingOptions/old``.
  public var oldValue: Value?
  /// The value after the change, if requested with ``ObservingOptions/new``.
  public var newValue: Value?
  /// The indexes of a to-many change; `nil` for a setting.
  public var indexes: IndexSet?
  /// Whether this is the extra notification sent before the change (``ObservingOptions/prior``).
  public var isPrior: Bool

  /// Creates a change record.
  @inlinable
  public init(
    kind: KeyValueChangeKind, oldValue: Value? = nil, newValue: Value? = nil,
    indexes: IndexSet? = nil, isPrior: Bool = false
  ) {
    self.kind = kind
    self.oldValue = oldValue
    self.newValue = newValue
    self.indexes = indexes
    self.isPrior = isPrior
  }
}

extension KeyValueChange: Sendable where Value: Sendable {}
extension KeyValueChange: Equatable where Value: Equatable {}
extension KeyValueChange: Hashable where Value: Hashable {}

extension KeyValueChange: CustomStringConvertible {
  /// A one-line description such as `setting old: "A" new: "Ann"`.
  public var description: String {
    var parts = [isPrior ? "prior \(kind)" : kind.description]
    if let indexes { parts.append("indexes: \(Array(indexes))") }
    if let oldValue { parts.append("old: \(KeyValueChange.show(oldValue))") }
    if let newValue { parts.append("new: \(KeyValueChange.show(newValue))") }
    return parts.joined(separator: " ")
  }

  static func show(_ value: Value) -> String {
    String(reflecting: value)
  }
}
