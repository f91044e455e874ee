extension KeyTable {
  /// Resolves a string key path into the keys it walks through.
  func resolve(_ path: KeyPathString) throws(KeyValueError) -> [KeyStep] {
    var table = self
    var steps: [KeyStep] = []
    for (position, name) in path.components.enumerated() {
      guard let index = table.indexByName[name] else {
        throw .unknownKey(
          key: name, type: table.typeName, path: path.prefix(position),
          suggestion: table.closestName(to: name))
      }
      let step = KeyStep(table: table, index: index)
      steps.append(step)
      if position < path.components.count - 1 {
        guard let next = step.entry.relatedKeys else {
          throw .notARelationship(key: name, type: table.typeName, role: step.entry.role)
        }
        table = next()
      }
    }
    return steps
  }

  /// Resolves a typed key path (one hop or several) into keys, reading it on `object` (with
  /// `read`) when it is not known yet.
  ///
  /// A known key path (declared, or learned) is a dictionary lookup, and so is a chain resolved
  /// before. Otherwise the key path is read while probing (see ``StorageProbe``): each
  /// ``Observed`` getter that runs reports its key path, and the reports are believed only when
  /// they compose into `keyPath` (exactly, or through the same properties from a subclass
  /// root: ``KeyPathComponents``). Every report teaches its class's table the key path of one
  /// key, so that chains through derived keys can then be composed (see ``search(_:)``).
  /// Optional chains (`\Package.sender?.firstName`) cannot be composed at all; they are
  /// reported as undeclared, and string key paths serve instead. Results are cached.
  func resolve(
    _ keyPath: AnyKeyPath, probing object: AnyObject, reading read: (AnyObject) -> Any
  ) throws(KeyValueError) -> [KeyStep] {
    guard let steps = resolution(of: keyPath, probing: object, reading: read) else {
      throw .undeclaredKeyPath(keyPath: KeyTable.describe(keyPath), type: typeName)
    }
    return steps
  }

  /// The keys typed key path `keyPath` walks through (see ``resolve(_:probing:reading:)``), or
  /// `nil` if it is not made of keys: a computed property, or an optional chain, whose inputs
  /// are found by reading it.
  func resolution(
    of keyPath: AnyKeyPath, probing object: AnyObject, reading read: (AnyObject) -> Any
  ) -> [KeyStep]? {
    if let index = index(of: keyPath) { return [KeyStep(table: self, index: index)] }
    if let cached = cacheLock.withLock({ chains[keyPath] }) { return cached }
    // A declared key, named from a subclass root (`\Employee.fullName` for `\Person.fullName`).
    if let index = entries.indices.first(where: {
      entries[$0].keyPath.map { KeyPathComponents.samePath($0, keyPath) } ?? false
    }) {
      learn(keyPath, index: index)
      return [KeyStep(table: self, index: index)]
    }
    // One report per hop, and room for what computed getters along the way read: a key path
    // may have any number of hops.
    let hops = KeyPathComponents.identities(of: keyPath)?.count ?? 1
    let reports = StorageProbe.reports(
      reading: read, on: object, limit: StorageProbe.Request.defaultLimit + hops)
    for report in reports { KeyTable.learn(from: report) }
    guard let steps = steps(of: keyPath, from: reports) ?? search(keyPath, hops: hops) else {
      return nil
    }
    if steps.count == 1 {
      learn(keyPath, index: steps[0].index)
    } else {
      cacheLock.withLock { chains[keyPath] = steps }
    }
    return steps
  }

  /// Teaches the table of the class that declares a reported property its key path.
  private static func learn(from report: StorageProbe.Report) {
    let table = of(report.declaringType)
    if let index = table.indexByOffset[report.offset] { table.learn(report.keyPath, index: index) }
  }

  /// The keys `reports` read, one per hop from this table, if they are exactly `keyPath`.
  private func steps(of keyPath: AnyKeyPath, from reports: [StorageProbe.Report]) -> [KeyStep]? {
    guard !reports.isEmpty else { return nil }
    var steps: [KeyStep] = []
    var table = self
    for report in reports {
      guard let index = table.indexByOffset[report.offset] else { return nil }
      steps.append(KeyStep(table: table, index: index))
      guard let next = table.entries[index].relatedKeys else { break }
      table = next()
    }
    guard steps.count == reports.count,
      let composed = KeyTable.compose(reports.map(\.keyPath))
    else { return nil }
    return composed == keyPath || KeyPathComponents.samePath(composed, keyPath) ? steps : nil
  }

  /// Depth-first search over chains of relationships that start at this table, composing the
  /// key paths of their keys (declared or learned) until one equals `target`, a key path of
  /// `hops` components (a chain has at most one key per component).
  private func search(_ target: AnyKeyPath, hops: Int) -> [KeyStep]? {
    var budget = 10_000
    return search(target, chain: [], depth: max(1, hops), budget: &budget)
  }

  private func search(_ target: AnyKeyPath, chain: [KeyStep], depth: Int, budget: inout Int)
    -> [KeyStep]?
  {
    guard chain.count < depth else { return nil }
    for index in entries.indices {
      budget -= 1
      guard budget > 0 else { return nil }
      let candidate = chain + [KeyStep(table: self, index: index)]
      let keyPaths = candidate.compactMap { $0.table.keyPath(ofKey: $0.index) }
      if candidate.count > 1, keyPaths.count == candidate.count,
        let composed = KeyTable.compose(keyPaths),
        composed == target || KeyPathComponents.samePath(composed, target)
      {
        return candidate
      }
      let entry = entries[index]
      if entry.role == .toOne || entry.role == .derived, !entry.isOptional,
        let next = entry.relatedKeys,
        let found = next().search(target, chain: candidate, depth: depth, budget: &budget)
      {
        return found
      }
    }
    return nil
  }

  /// A typed key path as readable text: `\\Person.age`, or, where the runtime cannot name the
  /// components (computed properties, including ``Observed`` ones), the types it connects.
  static func describe(_ keyPath: AnyKeyPath) -> String {
    let text = String(describing: keyPath)
    guard text.contains("<computed") else { return text }
    return "from \(type(of: keyPath).rootType) to \(type(of: keyPath).valueType)"
  }

  /// `a + (b + (c + …))`. Composition must fold from the right: a key path literal marks where
  /// its reference prefix ends, and only that fold reproduces the mark.
  private static func compose(_ keyPaths: [AnyKeyPath]) -> AnyKeyPath? {
    var composed: AnyKeyPath? = keyPaths.last
    for keyPath in keyPaths.dropLast().reversed() {
      composed = composed.flatMap { keyPath.appending(path: $0) }
    }
    return composed
  }
}
