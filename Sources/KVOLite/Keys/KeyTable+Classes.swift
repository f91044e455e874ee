import KVOLiteLocking

/// The table of every observable class: its superclass's keys, its ``Observed`` properties,
/// and its declarations, found once per class and kept.
extension KeyTable {
  private static let classesLock = Lock(schedules: false)
  /// Guarded by `classesLock`.
  nonisolated(unsafe) private static var classes: [ObjectIdentifier: KeyTable] = [:]

  /// The table of `type`, made the first time it is asked for. Safe from any thread: tables are
  /// made outside the lock (making one runs the class's ``KeyValueObservable/observableKeys``
  /// and may make its superclass's), and the first one stored wins.
  static func of(_ type: any KeyValueObservable.Type) -> KeyTable {
    let id = ObjectIdentifier(type)
    if let table = classesLock.withLock({ classes[id] }) { return table }
    let made = make(type)
    return classesLock.withLock {
      if let existing = classes[id] { return existing }
      classes[id] = made
      return made
    }
  }

  /// The table of `object`'s class: kept by its registrar's context once it has one. The first
  /// time a table is used with an object, its declarations are checked against it (see
  /// ``checkDeclarations(probing:)``).
  @usableFromInline
  static func of<Root: KeyValueObservable>(_ object: Root) -> KeyTable {
    let table =
      object.observationRegistrar.existingContextUnretained?._withUnsafeGuaranteedRef { $0.table }
      ?? of(type(of: object))
    table.checkDeclarations(probing: object)
    return table
  }

  /// Makes the table of `Root`: the superclass's table, at the same indexes; then `Root`'s own
  /// ``Observed`` properties; then its declarations, each refining the found key of the same
  /// name, replacing an inherited declaration of that name, or adding a key.
  private static func make<Root: KeyValueObservable>(_ type: Root.Type) -> KeyTable {
    let typeName = String(describing: type)
    let superclass = _getSuperclass(type) as? any KeyValueObservable.Type
    let parent = superclass.map { of($0) }
    if let superclass { noteInheritedDeclarations(of: type, superclass: superclass) }
    notePlainVariables(of: type, typeName)
    var entries = parent?.entries ?? []
    var offsets = parent?.knownOffsets ?? []
    var problems: [String] = []
    func index(of name: String) -> Int? { entries.firstIndex { $0.name == name } }
    for (entry, offset) in fields(of: type) where parent?.indexByOffset[offset] == nil {
      if index(of: entry.name) != nil {
        problems.append(
          "\(typeName).\(entry.name) is an @Observed property, but a superclass declares a key"
            + " \"\(entry.name)\": rename one of them")
        continue
      }
      entries.append(entry)
      offsets.append(offset)
    }
    for declared in type.observableKeys.table.entries {
      guard let existing = index(of: declared.name) else {
        entries.append(declared)
        offsets.append(nil)
        continue
      }
      if offsets[existing] != nil, declared.role == .derived {
        problems.append(
          "\(typeName).observableKeys declares \"\(declared.name)\" as a derived key, but"
            + " \(typeName).\(declared.name) is an @Observed property: a stored property is"
            + " already its own key; remove the declaration or rename it")
        continue
      }
      entries[existing] = declared
    }
    problems += unknownAffectingKeys(type.observableKeys.table.entries, among: entries, typeName)
    if !problems.isEmpty {
      fatalError("KVOLite: " + problems.joined(separator: "; "))
    }
    return KeyTable(
      typeName: typeName, entries: entries, knownOffsets: offsets,
      inheritedKeyPaths: parent?.indexByKeyPath ?? [:])
  }

  /// What an unknown-key error on a class, named by the error, may be missing for (see
  /// ``plainVariableHint(forKey:ofTypeNamed:)``, ``declarationHint(forTypeNamed:)``). Guarded by `classesLock`.
  private struct Note {
    /// The class that declares the conformance, when the class's
    /// ``KeyValueObservable/observableKeys`` are its superclass's: Swift calls that class's
    /// `observableKeys` (a `static let` a subclass declares is another property, never called).
    var declarationsOf: String?
    /// The class's stored `var`s that are not ``Observed`` (they are no keys).
    var plainVariables: Set<String> = []
  }

  /// Guarded by `classesLock`.
  nonisolated(unsafe) private static var notes: [String: Note] = [:]

  /// Notes `type`'s declarations as its superclass's, if they are.
  private static func noteInheritedDeclarations(
    of type: any KeyValueObservable.Type, superclass: any KeyValueObservable.Type
  ) {
    guard declaredNames(of: type) == declaredNames(of: superclass) else { return }
    var base: any KeyValueObservable.Type = superclass
    while let next = _getSuperclass(base) as? any KeyValueObservable.Type { base = next }
    let (typeName, baseName) = (String(describing: type), String(describing: base))
    classesLock.withLock { notes[typeName, default: Note()].declarationsOf = baseName }
  }

  /// Notes the stored `var`s of `type` (its superclasses' too) that are not ``Observed``.
  private static func notePlainVariables(of type: AnyClass, _ typeName: String) {
    let plain = StoredFields.of(type).filter {
      $0.isVariable && !($0.type is any DiscoverableStorage.Type)
    }
    guard !plain.isEmpty else { return }
    classesLock.withLock {
      notes[typeName, default: Note()].plainVariables = Set(plain.map(\.name))
    }
  }

  /// The names `type`'s ``KeyValueObservable/observableKeys`` declares.
  private static func declaredNames<Root: KeyValueObservable>(of type: Root.Type) -> [String] {
    type.observableKeys.table.entries.map(\.name)
  }

  /// What the key `key` of the class named `typeName`, which it does not have, is missing
  /// for, when that is known: it names a stored `var` that is not ``Observed``. (Said before a
  /// close match: the name is right.)
  static func plainVariableHint(forKey key: String, ofTypeNamed typeName: String) -> String? {
    guard classesLock.withLock({ notes[typeName]?.plainVariables.contains(key) }) == true else {
      return nil
    }
    return "\(typeName).\(key) is a stored property that is not @Observed: mark it @Observed"
      + " to make it a key"
  }

  /// What a key of the class named `typeName` may be missing for if that class is a subclass
  /// whose declarations are its superclass's: a `static let observableKeys` of its own, which
  /// Swift never calls.
  static func declarationHint(forTypeNamed typeName: String) -> String? {
    guard let base = classesLock.withLock({ notes[typeName]?.declarationsOf }) else { return nil }
    return "if \(typeName) declares it in a `static let observableKeys` of its own, that table"
      + " is never read (Swift calls \(base)'s): declare `class var observableKeys` in \(base)"
      + " and `override class var observableKeys` in \(typeName), adding to"
      + " `super.observableKeys`"
  }

  /// The stored `var`s of the class named `typeName` that are not ``Observed``, sorted.
  static func plainVariables(ofTypeNamed typeName: String) -> [String] {
    classesLock.withLock { notes[typeName]?.plainVariables.sorted() } ?? []
  }

  /// The key of each ``Observed`` stored property of `type` and its superclasses, with the
  /// offset of its storage, in declaration order (superclasses first).
  /// Stops the program if the runtime lists no stored property of `type` at all — not even the
  /// registrar its conformance stores: its module was built without reflection metadata, and
  /// its ``Observed`` properties cannot be found.
  private static func fields<Root: KeyValueObservable>(of type: Root.Type) -> [(KeyEntry, Int)] {
    let listed = StoredFields.of(type)
    if listed.isEmpty {
      fatalError(
        "KVOLite: the Swift runtime lists no stored property of \(type), not even its"
          + " observationRegistrar, so its @Observed properties cannot be found: its module was"
          + " built without reflection metadata (-disable-reflection-metadata or"
          + " -reflection-metadata-for-debugger-only); build it with reflection metadata")
    }
    var found: [(KeyEntry, Int)] = []
    for field in listed {
      guard let storage = field.type as? any DiscoverableStorage.Type else { continue }
      // A property wrapper's storage is named after the property, with an underscore.
      guard field.name.hasPrefix("_") else { continue }
      let key = String(field.name.dropFirst())
      found.append(
        (storage.discoveredEntry(name: key, offset: field.offset, in: type), field.offset))
    }
    return found
  }

  /// A problem for each key that a derived key of `declared` is affected by and that is not a
  /// key of the class (`entries`): the first key of each affecting path, which names a key of
  /// the declaring class itself. (The rest of a path names keys of other classes, checked when
  /// the path is first resolved.)
  private static func unknownAffectingKeys(
    _ declared: [KeyEntry], among entries: [KeyEntry], _ typeName: String
  ) -> [String] {
    let names = entries.map(\.name)
    var problems: [String] = []
    for entry in declared where entry.role == .derived {
      for path in entry.affectedBy ?? [] {
        let first = String(path.prefix { $0 != "." })
        guard !first.hasPrefix("@"), !names.contains(first) else { continue }
        let hint = Suggestion.closest(to: first, among: names).map { "; did you mean \"\($0)\"?" }
        problems.append(
          "\(typeName).observableKeys declares the derived key \"\(entry.name)\" affected by"
            + " \"\(path)\", but \(typeName) has no key \"\(first)\"\(hint ?? "")")
      }
    }
    return problems
  }
}
