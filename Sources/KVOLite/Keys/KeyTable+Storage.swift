extension KeyTable {
  /// Where key `index`'s ``Observed`` storage is in `object` (an object of this table's class or
  /// a subclass), and the key that observers of it register under; the offset is `nil` if the
  /// key is not an ``Observed`` property (a derived key, or a computed one notified by hand).
  ///
  /// A key found from its property knows its offset. A declared key learns it the first time,
  /// by probing `object` (see ``StorageProbe``), and is then checked against what was found:
  /// declared under the name of a found key, it must be that key's property; declared under
  /// another name, it is another name of the key found for its property, whose observers it
  /// shares (so that a set of the property notifies both).
  ///
  /// - Throws: ``KeyValueError/notObservable(key:type:)`` if the key notifies automatically but
  ///   has no ``Observed`` storage: observing it would never fire.
  func storage(ofKey index: Int, probing object: AnyObject) throws(KeyValueError) -> (
    offset: Int?, key: Int
  ) {
    let entry = entries[index]
    guard entry.role != .derived else { return (nil, index) }
    if let known = knownOffsets[index] {
      if entry.keyPath != nil { check(key: index, storedAt: known, probing: object) }
      return (known, index)
    }
    let offset = probedOffset(ofKey: index, probing: object)
    if offset == nil, entry.notifiesAutomatically {
      throw .notObservable(key: entry.name, type: typeName)
    }
    return (offset, offset.flatMap { indexByOffset[$0] } ?? index)
  }

  /// ``storage(ofKey:probing:)``'s offset.
  func storageOffset(ofKey index: Int, probing object: AnyObject) throws(KeyValueError) -> Int? {
    try storage(ofKey: index, probing: object).offset
  }

  /// The offset of the storage the declared key path of key `index` reads, probed once per key.
  private func probedOffset(ofKey index: Int, probing object: AnyObject) -> Int? {
    var probed = probedOffsets[index].load(ordering: .acquiring)
    if probed == Int.min, let keyPath = entries[index].keyPath {
      // Probes racing on the same key find the same offset.
      probed = StorageProbe.offset(of: keyPath, in: object, reading: entries[index].value) ?? -1
      probedOffsets[index].store(probed, ordering: .releasing)
    }
    return probed >= 0 ? probed : nil
  }

  /// Checks, once, that the declaration of key `index`, named like the ``Observed`` property
  /// stored at `offset`, is a declaration of that property.
  private func check(key index: Int, storedAt offset: Int, probing object: AnyObject) {
    guard let probed = probedOffset(ofKey: index, probing: object), probed != offset else {
      return
    }
    let name = entries[index].name
    let other = indexByOffset[probed].map { " (the key \"\(entries[$0].name)\")" } ?? ""
    fatalError(
      "KVOLite: \(typeName).observableKeys declares \"\(name)\" with the key path of another"
        + " property\(other), but \(typeName).\(name) is an @Observed property, which is the key"
        + " \"\(name)\": declare \\.\(name) under that name, or give the declaration another name")
  }

  /// Checks, the first time the table is used with an object, that each declaration named like
  /// a found key is a declaration of that key's property (a mistake stops the program, naming
  /// both). Later calls cost one atomic load.
  func checkDeclarations(probing object: AnyObject) {
    // Marked first, so that a getter the check runs cannot start the check again.
    guard !checkedDeclarations.load(ordering: .relaxed),
      !checkedDeclarations.exchange(true, ordering: .relaxed)
    else { return }
    for index in entries.indices where entries[index].keyPath != nil {
      if let known = knownOffsets[index] { check(key: index, storedAt: known, probing: object) }
    }
  }
}
