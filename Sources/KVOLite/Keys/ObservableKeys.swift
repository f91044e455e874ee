import KVOLiteLocking
import Synchronization

/// The declared keys of one observable type: name → typed key path, with each key's role.
///
/// A type declares its table once, as ``KeyValueObservable/observableKeys``, usually with an
/// array literal of ``ObservableKey`` declarations. String key paths
/// (`"recipient.postalAddress.street"`) and typed key paths with several hops
/// (`\Package.recipient.firstName`) are resolved through these tables.
///
/// Tables are immutable after creation and safe to use from any thread.
public final class ObservableKeys<Root: AnyObject>: ExpressibleByArrayLiteral, Sendable {
  @usableFromInline let table: KeyTable

  /// Creates a table from declarations. Names must be unique, non-empty, and contain neither
  /// `.` nor `@`; a violation is a programming error and traps with a message naming the key.
  public init(_ keys: [ObservableKey<Root>]) {
    table = KeyTable(typeName: String(describing: Root.self), entries: keys.map(\.entry))
  }

  /// The table of `keys`, in order. A key name that is empty, holds a dot or starts with `@`, or is declared twice, is a programming error (a precondition failure).
  public convenience init(arrayLiteral keys: ObservableKey<Root>...) {
    self.init(keys)
  }

  /// The declarations, in declaration order.
  public var keys: [ObservableKey<Root>] { table.entries.map(ObservableKey.init(entry:)) }

  /// The declaration named `name`, if there is one.
  public subscript(name: String) -> ObservableKey<Root>? {
    table.indexByName[name].map { ObservableKey(entry: table.entries[$0]) }
  }
}

/// The type-erased table behind ``ObservableKeys``.
@usableFromInline
final class KeyTable: @unchecked Sendable {
  // @unchecked: everything but the caches is immutable; they are behind their own lock.
  let typeName: String
  let entries: [KeyEntry]
  let indexByName: [String: Int]
  let indexByKeyPath: [AnyKeyPath: Int]
  // The caches are behind `cacheLock`, so their accesses are not checked for exclusivity too.
  private let cacheLock = Lock()
  @exclusivity(unchecked) private var cache: [AnyKeyPath: [KeyStep]] = [:]
  /// Storage offsets by key index, once probed: `Int.min` until then, -1 for a key with no
  /// ``Observed`` storage. Read on every registration, so atomic rather than behind the lock;
  /// never freed, like the table (tables are static).
  private let storageOffsets: UnsafeMutablePointer<Atomic<Int>>
  /// String key paths resolved for key-value coding, by text (bounded: cleared when full).
  @exclusivity(unchecked) private var resolvedPaths: [String: KeyValuePath] = [:]
  /// Key path objects recently looked up by `declaredIndex`, compared by identity: a key path
  /// literal is one object per call site, so this avoids hashing it on every registration. The
  /// key paths are retained, so that their addresses cannot be reused while cached.
  @exclusivity(unchecked) private var recent: [(keyPath: AnyKeyPath, index: Int?)] = []

  init(typeName: String, entries: [KeyEntry]) {
    self.typeName = typeName
    self.entries = entries
    var byName: [String: Int] = [:]
    var byKeyPath: [AnyKeyPath: Int] = [:]
    // Every problem of the names, in one message.
    var problems: [String] = []
    for (index, entry) in entries.enumerated() {
      if entry.name.isEmpty || entry.name.contains(".") || entry.name.hasPrefix("@") {
        problems.append("\"\(entry.name)\" is not a valid key name")
      }
      if byName.updateValue(index, forKey: entry.name) != nil,
        !problems.contains("\"\(entry.name)\" is declared twice")
      {
        problems.append("\"\(entry.name)\" is declared twice")
      }
      byKeyPath[entry.keyPath] = byKeyPath[entry.keyPath] ?? index
    }
    if !problems.isEmpty {
      preconditionFailure("\(typeName).observableKeys: " + problems.joined(separator: "; "))
    }
    indexByName = byName
    indexByKeyPath = byKeyPath
    storageOffsets = .allocate(capacity: max(1, entries.count))
    for index in 0..<max(1, entries.count) {
      (UnsafeMutableRawPointer(storageOffsets + index)).initializeMemory(
        as: Int.self, repeating: Int.min, count: 1)
    }
  }

  /// The index of `keyPath` if it is one declared stored key (not derived); `nil` otherwise.
  @usableFromInline
  func directIndex(of keyPath: AnyKeyPath) -> Int? {
    declaredIndex(of: keyPath).flatMap { entries[$0].role == .derived ? nil : $0 }
  }

  /// The index of `keyPath` if it is one declared key; `nil` if it is not.
  func declaredIndex(of keyPath: AnyKeyPath) -> Int? {
    if let hit = cacheLock.withLock({ recent.last(where: { $0.keyPath === keyPath }) }) {
      return hit.index
    }
    let index = indexByKeyPath[keyPath]
    cacheLock.withLock {
      if recent.count == 32 { recent.removeFirst() }
      recent.append((keyPath, index))
    }
    return index
  }

  /// `text` resolved for key-value coding, from a small cache: a command line or a script
  /// names the same paths over and over.
  func keyValuePath(_ text: String) throws(KeyValueError) -> KeyValuePath {
    if let cached = cacheLock.withLock({ resolvedPaths[text] }) { return cached }
    let path = try KeyValuePath(text, in: self)
    cacheLock.withLock {
      if resolvedPaths.count >= 256 { resolvedPaths.removeAll(keepingCapacity: true) }
      resolvedPaths[text] = path
    }
    return path
  }

  /// The declared key closest to `name`, if it is close enough to suggest.
  func closestName(to name: String) -> String? {
    Suggestion.closest(to: name, among: entries.lazy.map(\.name))
  }
}

/// One resolved component of a key path: a key of a table.
struct KeyStep: @unchecked Sendable {
  let table: KeyTable
  let index: Int
  var entry: KeyEntry { table.entries[index] }

  /// The error of a set of this key when it cannot be set: it is derived, or read-only.
  var notSettable: KeyValueError {
    .notSettable(
      key: entry.name, type: table.typeName,
      reason: entry.role == .derived ? "it is derived" : "it is read-only")
  }
}

// MARK: - Resolution

extension KeyTable {
  /// Resolves a string key path into the declared keys it walks through.
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

  /// Resolves a typed key path (one hop or several) into declared keys.
  ///
  /// A one-hop path is a dictionary lookup. A longer path is found by composing declared key
  /// paths: `\Package.recipient` appending `\Person.firstName` equals
  /// `\Package.recipient.firstName`. Composition must fold from the right (`a + (b + c)`): a
  /// key path literal marks where its reference prefix ends, and only that fold reproduces the
  /// mark. Optional chains (`\Package.sender?.firstName`) cannot be composed from declared key
  /// paths at all; they are reported as undeclared, and string key paths serve instead.
  /// Results are cached.
  func resolve(_ keyPath: AnyKeyPath) throws(KeyValueError) -> [KeyStep] {
    if let index = indexByKeyPath[keyPath] { return [KeyStep(table: self, index: index)] }
    if let cached = cacheLock.withLock({ cache[keyPath] }) { return cached }
    var budget = 10_000
    guard let steps = search(keyPath, chain: [], budget: &budget) else {
      throw .undeclaredKeyPath(keyPath: KeyTable.describe(keyPath), type: typeName)
    }
    cacheLock.withLock { cache[keyPath] = steps }
    return steps
  }

  /// Depth-first search over chains of relationships that start at this table.
  private func search(_ target: AnyKeyPath, chain: [KeyStep], budget: inout Int) -> [KeyStep]? {
    guard chain.count < 8 else { return nil }
    for index in entries.indices {
      budget -= 1
      guard budget > 0 else { return nil }
      let candidate = chain + [KeyStep(table: self, index: index)]
      if candidate.count > 1, KeyTable.compose(candidate) == target { return candidate }
      let entry = entries[index]
      if entry.role == .toOne || entry.role == .derived, !entry.isOptional,
        let next = entry.relatedKeys,
        let found = next().search(target, chain: candidate, budget: &budget)
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

  /// `a + (b + (c + …))`.
  private static func compose(_ steps: [KeyStep]) -> AnyKeyPath? {
    var composed: AnyKeyPath? = steps.last!.entry.keyPath
    for step in steps.dropLast().reversed() {
      composed = composed.flatMap { step.entry.keyPath.appending(path: $0) }
    }
    return composed
  }
}

// MARK: - Storage

extension KeyTable {
  /// The offset of key `index`'s ``Observed`` storage in objects of this type, or `nil` if the
  /// key is not an ``Observed`` property of its declared type (a derived key, or a computed one
  /// notified by hand).
  ///
  /// Found the first time by probing `object` (see ``StorageProbe``), then remembered: every
  /// object of a final class has the same layout.
  ///
  /// - Throws: ``KeyValueError/notObservable(key:type:)`` if the key notifies automatically but
  ///   has no ``Observed`` storage: observing it would never fire.
  func storageOffset(ofKey index: Int, probing object: AnyObject) throws(KeyValueError) -> Int? {
    let entry = entries[index]
    guard entry.role != .derived else { return nil }
    var known = storageOffsets[index].load(ordering: .acquiring)
    if known == Int.min {
      // Probes racing on the same key find the same offset.
      known = StorageProbe.offset(of: entry.keyPath, in: object, reading: entry.value) ?? -1
      storageOffsets[index].store(known, ordering: .releasing)
    }
    let offset = known >= 0 ? known : nil
    if offset == nil, entry.notifiesAutomatically {
      throw .notObservable(key: entry.name, type: typeName)
    }
    return offset
  }
}
