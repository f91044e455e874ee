/// Where an observed key path meets the elements of a to-many relationship: a key of every
/// element (`contents.weight`), or a collection operator over one (`contents.@sum.weight`).
///
/// Such a path is observed by following the relationship and the key on each of its elements
/// (see ``SerialObservation``), not by a chain of keys.
enum ElementPath {
  /// What an observed key path depends on.
  enum Dependency {
    /// A chain of keys (which may end in a derived key, or in a collection operator that needs
    /// no element key, `@count`).
    case keys([KeyStep])
    /// A key path of every element of a relationship: the keys to the relationship, and the
    /// key path on each element.
    case elements(relationship: [KeyStep], rest: String)
  }

  /// What `keyPath`, a path of `table`, depends on: a chain of keys, or a key path of every
  /// element of a relationship (through it without an index, or after an operator).
  ///
  /// - Throws: the path's error, relative to `table`.
  static func dependency(_ keyPath: String, in table: KeyTable) throws(KeyValueError)
    -> Dependency
  {
    if let (relationship, rest) = try split(keyPath, in: table) {
      return .elements(relationship: try table.resolve(KeyPathString(relationship)), rest: rest)
    }
    let path = try table.keyValuePath(keyPath)
    let (steps, _) = try path.observedSteps()
    if case .collect(_, let right?)? = path.components.last {
      return .elements(relationship: steps, rest: right.text)
    }
    return .keys(steps)
  }

  /// Where `keyPath` of `table` passes through a to-many relationship with neither an index nor
  /// an operator after it: the path to the relationship, and the rest, which must be a path of
  /// the elements' type (checked, so that a mistake throws at registration, elements or not).
  static func split(_ keyPath: String, in table: KeyTable) throws(KeyValueError) -> (
    relationship: String, rest: String
  )? {
    let names = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    var table = table
    for (position, name) in names.enumerated().dropLast() {
      guard let index = table.indexByName[name] else { return nil }
      let entry = table.entries[index]
      if entry.role == .toMany {
        let next = names[position + 1]
        guard let elementKeys = entry.elementKeys, !next.hasPrefix("@"), Int(next) == nil else {
          return nil
        }
        let rest = names[(position + 1)...].joined(separator: ".")
        _ = try dependency(rest, in: elementKeys())
        return (names[...position].joined(separator: "."), rest)
      }
      guard let related = entry.relatedKeys else { return nil }
      table = related()
    }
    return nil
  }

  /// Whether `error`, met observing `rest` on `element`, is about a key whose key path is
  /// read-only (a `let`): such a key never changes, so there is nothing to observe on it.
  static func isReadOnly<Element: KeyValueObservable>(
    _ error: KeyValueError, along rest: String, of element: Element
  ) -> Bool {
    guard case .notObservable(let key, let typeName) = error else { return false }
    var table = KeyTable.of(element)
    for name in rest.split(separator: ".") {
      guard let index = table.indexByName[String(name)] else { return false }
      let entry = table.entries[index]
      if entry.name == key, table.typeName == typeName {
        return entry.store == nil && entry.role != .derived
      }
      guard let next = entry.relatedKeys ?? entry.elementKeys else { return false }
      table = next()
    }
    return false
  }
}
