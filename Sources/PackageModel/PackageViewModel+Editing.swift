import KVOLite

extension PackageViewModel {
  /// The key paths set through key-value coding: every settable attribute of the package.
  private static let attributeKeyPaths = Set(
    Package.allObservableKeys.attributeKeyPaths(settableOnly: true))

  /// Sets a value of the package from text, the way a view bound to this view model would,
  /// and says what happened.
  ///
  /// Every edit takes one route, decided by what the key path names and never by the value:
  ///
  /// 1. The key path is resolved by key-value coding (so every naming error is its error).
  /// 2. If the key already has the value the text spells, nothing is written: the result is
  ///    ``PackageEdit/Kind-swift.enum/unchanged``, no one is notified, and there is nothing to undo.
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
    if let (index, key) = Self.contentField(keyPath) {
      _ = try package.value(forKeyPath: keyPath)  // An index out of range, an unknown key.
      let old = package.contents[index]
      let new = try old.replacing(key, withText: text, path: keyPath)
      let value = try? new.value(forKey: key)
      guard new != old else { return PackageEdit(kind: .unchanged, value: value) }
      do {
        try replaceContent(at: index, with: new)
      } catch {
        throw .validationFailed(path: keyPath, reason: error.description)
      }
      return PackageEdit(kind: .replacedContent(index: index, old: old, new: new), value: value)
    }
    let current = try package.value(forKeyPath: keyPath)
    if Self.attributeKeyPaths.contains(keyPath), let value = Self.value(of: text, as: current) {
      if Self.same(value, current) { return PackageEdit(kind: .unchanged, value: current) }
      try package.setValue(fromText: text, forKeyPath: keyPath)
      return PackageEdit(kind: .set, value: value)
    }
    // Not a settable attribute (a derived key, a relationship…): key-value coding says what it
    // is and refuses it, or an override point takes it.
    try package.setValue(fromText: text, forKeyPath: keyPath)
    return PackageEdit(kind: .set, value: nil)
  }

  /// The index and key of `contents.<index>.<key>`, once key-value coding has resolved it.
  private static func contentField(_ keyPath: String) -> (index: Int, key: String)? {
    // Most edits are of attributes: tell them apart without splitting the path.
    guard keyPath.utf8.starts(with: "contents.".utf8) else { return nil }
    let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == "contents", let index = Int(parts[1]) else { return nil }
    return (index, String(parts[2]))
  }

  /// The value `text` spells, parsed as the type of `current` (`nil` if it cannot be told:
  /// `current` has no text form, or the text does not parse).
  private static func value(of text: String, as current: Any?) -> Any? {
    // Text first: every attribute of the package is text, and a cast to a protocol costs more.
    if current is String { return text }
    guard let current = current as? any KeyValueTextConvertible else { return nil }
    return parse(text, as: current)
  }

  private static func parse<Value: KeyValueTextConvertible>(_ text: String, as _: Value) -> Any? {
    Value(keyValueText: text)
  }

  /// Whether two values of one text-convertible type are the same value (compared as text, so
  /// that `1.50` is `1.5` and NaN is NaN).
  private static func same(_ value: Any, _ current: Any?) -> Bool {
    if let value = value as? String, let current = current as? String { return value == current }
    guard let value = value as? any KeyValueTextConvertible,
      let current = current as? any KeyValueTextConvertible
    else { return false }
    return value.keyValueText == current.keyValueText
  }
}
