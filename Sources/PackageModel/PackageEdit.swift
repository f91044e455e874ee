/// What ``PackageViewModel/setValue(fromText:forKeyPath:)`` did, and the key's value after it.
public struct PackageEdit {
  /// What happened.
  public enum Kind: Equatable, Sendable {
    /// The key already had that value: nothing was written, nobody was notified, and there is
    /// nothing to undo.
    case unchanged
    /// The attribute was set on the model (one setting notification).
    case set
    /// The content line at `index` was replaced by `new`, a copy of `old` with the new value
    /// (contents are immutable): one `replacement` notification of `contents`.
    case replacedContent(index: Int, old: PackageContent, new: PackageContent)
  }

  /// What happened.
  public let kind: Kind
  /// The key's value after the edit, as key-value coding reads it (`nil` if it cannot be
  /// known without reading the whole key path again).
  public let value: Any?
}
