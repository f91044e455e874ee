/// Diagnoses the mistakes of a type's key declarations, so that the first error a user meets
/// names the property and lists every other problem of the type at once.
extension KeyTable {
  /// Every problem of these declarations that shows on `object`: a key declared as notifying
  /// automatically whose property is not ``Observed`` (a plain `var`, or a computed property).
  /// Each key is probed once per class (see ``storage(ofKey:probing:)``), which reads it.
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
  /// The message of a typed key path that cannot be used for `action` (`"observe"`): what is
  /// wrong, naming the class, the property where the runtime can name it, and the fix; then
  /// every other problem of the class's declarations.
  @usableFromInline
  static func diagnosis(
    _ error: KeyValueError, keyPath: AnyKeyPath, object: Self, action: String = "observe"
  ) -> String {
    let table = KeyTable.of(object)
    let declared = table.entries.first { $0.keyPath == keyPath }.map {
      "\(table.typeName).\($0.name)"
    }
    let subject = declared ?? "the key path \(KeyTable.describe(keyPath))"
    var message = "cannot \(action) \(subject): \(error)"
    if case .undeclaredKeyPath = error {
      if declared == nil,
        let name = table.propertyName(
          of: keyPath, in: object, reading: { ($0 as! Self)[keyPath: keyPath] as Any })
      {
        message =
          "cannot \(action) \(name): it is not an @Observed property, so it never notifies"
          + " (mark it @Observed)"
      } else if action == "observe", KeyPathComponents.identities(of: keyPath)?.count == 1 {
        // A computed property: its reading found no @Observed property (none is observed by
        // typed key path without one).
        let plain = KeyTable.plainVariables(ofTypeNamed: table.typeName)
        message =
          "cannot observe \(subject): it is a computed property that reads no @Observed property,"
          + " so it never notifies; mark the stored properties it reads @Observed"
          + (plain.isEmpty
            ? "" : " (\(table.typeName)'s that are not: \(plain.joined(separator: ", ")))")
      } else if KeyPathComponents.identities(of: keyPath)?.count == 1 {
        message =
          "cannot \(action) \(subject): it is neither an @Observed property nor a key declared"
          + " in \(table.typeName).observableKeys (mark a stored property @Observed; declare a"
          + " computed one as a derived key, with the key paths it reads: .derived(\"name\","
          + " \\.name, affectedBy: [\"…\"]))"
      } else {
        message =
          "cannot \(action) \(subject): it is not made of keys of \(table.typeName) (@Observed"
          + " properties and keys declared in \(table.typeName).observableKeys; an optional"
          + " chain such as \\.sender?.name is observed by string key path)"
      }
    }
    let others = table.problems(probing: object).filter { !message.contains($0) }
    if !others.isEmpty {
      message +=
        "; \(table.typeName) has "
        + (others.count == 1 ? "another problem: " : "\(others.count) other problems: ")
        + others.joined(separator: "; ")
    }
    return "KVOLite: " + message
  }
}
