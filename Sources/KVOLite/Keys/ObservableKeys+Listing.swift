extension ObservableKeys {
  /// The string key paths of every attribute reachable from this type through to-one
  /// relationships, in declaration order (depth first): `recipient.firstName`,
  /// `recipient.postalAddress.street`, …
  ///
  /// - Parameters:
  ///   - settableOnly: Only attributes that key-value coding can set from text (writable, of a
  ///     ``KeyValueTextConvertible`` type); otherwise derived keys are listed too.
  /// - Returns: The paths; a relationship back to a type already on the path is not followed.
  public func attributeKeyPaths(settableOnly: Bool = false) -> [String] {
    var paths: [String] = []
    table.collectAttributes(prefix: "", visiting: [], settableOnly: settableOnly, into: &paths)
    return paths
  }
}

extension KeyTable {
  fileprivate func collectAttributes(
    prefix: String, visiting: [ObjectIdentifier], settableOnly: Bool, into paths: inout [String]
  ) {
    let visiting = visiting + [ObjectIdentifier(self)]
    for entry in entries {
      let path = prefix + entry.name
      switch entry.role {
      case .attribute:
        if !settableOnly || entry.assignText != nil { paths.append(path) }
      case .derived:
        if !settableOnly { paths.append(path) }
      case .toOne:
        guard let related = entry.relatedKeys?(), !visiting.contains(ObjectIdentifier(related))
        else {
          continue
        }
        related.collectAttributes(
          prefix: path + ".", visiting: visiting, settableOnly: settableOnly, into: &paths)
      case .toMany:
        continue
      }
    }
  }
}
