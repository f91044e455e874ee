import KVOLite

extension PackageViewModel {
  /// The key paths set through key-value coding: every settable attribute of the package.
  private static let attributeKeyPaths = Set(
    Package.observableKeys.attributeKeyPaths(settableOnly: true))

  /// Sets a value of the package from text, the way a view bound to this view model would,
  /// and says what happened.
  ///
  /// Every edit takes one route, decided by what the key path names and never by the value:
  ///
  /// 1. The key path is resolved by key-value coding (so every naming error is its error).
  /// 2. If the key already has the value the text spells, nothing is written: the result is
  ///    ``PackageEdit/unchanged``, no one is notified, and there is nothing to undo.
  /// 3. An attribute of the package (`recipient.firstName`, `sender.postalAddress.city`) is set
  ///    by key-value coding on the model, and the view model's fields follow through their
  ///    mirrors; a field of a content line (`contents.1.quantity`) replaces the line with a
  ///    copy holding the new value (``PackageContent/replacing(_:withText:path:)``), one
  ///    `replacement` of `contents`.
  ///
  /// Observers run on the calling thread, after the change.
  /// - Throws: ``/KVOLite/KeyValueError`` if the key path does not name a settable value, the
  ///   text does not convert to its type, or the value is refused (a content's limits, the
  ///   package's totals); nothing changes.
  @discardableResult
  public func setValue(fromText text: String, forKeyPath keyPath: String) throws(KeyValueError)
    -> PackageEdit
  {
    let current = try package.value(forKeyPath: keyPath)
    if let (index, key) = Self.contentField(keyPath) {
      let old = package.contents[index]
      let new = try old.replacing(key, withText: text, path: keyPath)
      guard new != old else { return .unchanged }
      do {
        try replaceContent(at: index, with: new)
      } catch {
        throw .validationFailed(path: keyPath, reason: error.description)
      }
      return .replacedContent(index: index, old: old, new: new)
    }
    if Self.attributeKeyPaths.contains(keyPath), Self.text(text, spells: current) {
      return .unchanged
    }
    try package.setValue(fromText: text, forKeyPath: keyPath)
    return .set
  }

  /// The index and key of `contents.<index>.<key>`, once key-value coding has resolved it.
  private static func contentField(_ keyPath: String) -> (index: Int, key: String)? {
    let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == "contents", let index = Int(parts[1]) else { return nil }
    return (index, String(parts[2]))
  }

  /// Whether `text` parses, as the type of `value`, to `value` (compared as text, so that
  /// `1.50` spells `1.5` and `nan` spells NaN).
  private static func text(_ text: String, spells value: Any?) -> Bool {
    guard let value = value as? any KeyValueTextConvertible else { return false }
    return spells(text, value)
  }

  private static func spells<Value: KeyValueTextConvertible>(_ text: String, _ value: Value)
    -> Bool
  {
    Value(keyValueText: text)?.keyValueText == value.keyValueText
  }
}
