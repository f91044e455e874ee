/// What ``PackageViewModel/setValue(fromText:forKeyPath:)`` did.
public enum PackageEdit: Equatable, Sendable {
  /// The key already had that value: nothing was written, nobody was notified, and there is
  /// nothing to undo.
  case unchanged
  /// The attribute was set on the model (one setting notification).
  case set
  /// The content line at `index` was replaced by `new`, a copy of `old` with the new value
  /// (contents are immutable): one `replacement` notification of `contents`.
  case replacedContent(index: Int, old: PackageContent, new: PackageContent)
}
