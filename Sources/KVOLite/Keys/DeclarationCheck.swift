/// Diagnoses the mistakes of a type's key declarations, so that the first error a user meets
/// names the property and lists every other problem of the type at once.
extension KeyTable {
  /// Every problem of these declarations that shows on `object`: a key declared as notifying
  /// automatically whose property is not ``Observed`` (a plain `var`, or a computed property).
  /// Each key is probed once per type (see ``storageOffset(ofKey:probing:)``), which reads it.
  func problems(probing object: AnyObject) -> [String] {
    entries.indices.compactMap { index -> String? in
      do throws(KeyValueError) {
        _ = try storageOffset(ofKey: index, probing: object)
        return nil
      } catch {
        return error.description
      }
    }
  }

  /// The declared form of a property a typed key path reads, as `Contact.nickname`, if it is
  /// one property of `object`'s type: named by the runtime for a stored property, or found by
  /// probing for an ``Observed`` one (whose key path the runtime cannot name).
  func propertyName(
    of keyPath: AnyKeyPath, in object: AnyObject, reading read: (AnyObject) -> Any
  ) -> String? {
    let text = String(describing: keyPath)
    if !text.contains("<computed"), text.hasPrefix("\\"), text.filter({ $0 == "." }).count == 1 {
      return String(text.dropFirst())
    }
    return StorageProbe.propertyName(of: keyPath, in: object, reading: read)
  }
}

extension KeyValueObservable {
  /// The message of a typed observation that cannot be made: what is wrong with the key path,
  /// naming the property (`Contact.nickname is not declared in Contact.observableKeys`), then
  /// every other problem of the type's declarations.
  @usableFromInline
  static func diagnosis(_ error: KeyValueError, keyPath: AnyKeyPath, object: Self) -> String {
    let table = observableKeys.table
    var message = "cannot observe \(error)"
    if case .undeclaredKeyPath = error,
      let name = table.propertyName(
        of: keyPath, in: object, reading: { ($0 as! Self)[keyPath: keyPath] as Any })
    {
      let key = name[name.index(after: name.lastIndex(of: ".")!)...]
      message =
        "\(name) is not declared in \(table.typeName).observableKeys, so it cannot be observed"
        + " (declare it there, for example as .attribute(\"\(key)\", \\.\(key)))"
    }
    let others = table.problems(probing: object).filter { !message.contains($0) }
    if !others.isEmpty {
      message +=
        "; \(table.typeName).observableKeys has "
        + (others.count == 1 ? "another problem: " : "\(others.count) other problems: ")
        + others.joined(separator: "; ")
    }
    return "KVOLite: " + message
  }
}
