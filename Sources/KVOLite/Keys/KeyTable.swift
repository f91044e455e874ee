import KVOLiteLocking
import Synchronization

/// The keys of one class, type-erased: what ``ObservableKeys`` wraps.
///
/// A class's table (``of(_:)-(any KeyValueObservable.Type)``) holds its superclass's keys first,
/// at the same indexes, so that a key index found in the table of a class is the same key in
/// the table of each of its subclasses (a subclass may replace a derived key's entry, never
/// move it). Entries are immutable; what is learned later (key paths found by probing, storage
/// offsets, resolved paths) is kept in caches behind their own lock.
@usableFromInline
final class KeyTable: @unchecked Sendable {
  // @unchecked: everything but the caches is immutable; they are behind their own lock.
  let typeName: String
  let entries: [KeyEntry]
  let indexByName: [String: Int]
  /// The declared key paths, and those of the superclass's declarations (a subclass that
  /// replaces a declaration keeps answering to its superclass's key path).
  let indexByKeyPath: [AnyKeyPath: Int]
  /// The storage offset of each key found from its ``Observed`` property (`nil` for the others),
  /// by key index.
  let knownOffsets: [Int?]
  /// The key whose ``Observed`` storage is at an offset: how a key declared under another name
  /// finds the key it is another name of.
  let indexByOffset: [Int: Int]
  // The caches are behind `cacheLock`, so their accesses are not checked for exclusivity too.
  let cacheLock = Lock(schedules: false)
  /// Chains of keys that typed key paths of several hops resolved to.
  @exclusivity(unchecked) var chains: [AnyKeyPath: [KeyStep]] = [:]
  /// Key paths learned by probing (see ``StorageProbe``): a found key's wrapped key path, and
  /// typed key paths rooted at a subclass that name a key of this table.
  @exclusivity(unchecked) var learnedIndexes: [AnyKeyPath: Int] = [:]
  /// A key path of each found key that probing learned, by key index (for composing chains).
  @exclusivity(unchecked) var learnedKeyPaths: [Int: AnyKeyPath] = [:]
  /// Storage offsets by key index, once probed: `Int.min` until then, -1 for a key with no
  /// ``Observed`` storage. Read on every registration, so atomic rather than behind the lock;
  /// freed with the table (see `deinit`).
  let probedOffsets: UnsafeMutablePointer<Atomic<Int>>
  /// Whether the declarations named like found keys were checked against an object (see
  /// ``checkDeclarations(probing:)``).
  let checkedDeclarations = Atomic<Bool>(false)
  /// String key paths resolved for key-value coding, by text (bounded: cleared when full).
  @exclusivity(unchecked) var resolvedPaths: [String: KeyValuePath] = [:]
  /// Key path objects recently looked up by ``index(of:)``, compared by identity: a key path
  /// literal is one object per call site, so this avoids hashing it on every registration. The
  /// key paths are retained, so that their addresses cannot be reused while cached.
  @exclusivity(unchecked) private var recent: [(keyPath: AnyKeyPath, index: Int?)] = []

  /// A table of `entries`, whose ``Observed`` storage is at `knownOffsets` where it is known.
  /// A name that is empty, holds a dot or starts with `@`, or is given twice, is a programming
  /// error: every problem is listed in one message.
  init(
    typeName: String, entries: [KeyEntry], knownOffsets: [Int?] = [],
    inheritedKeyPaths: [AnyKeyPath: Int] = [:]
  ) {
    self.typeName = typeName
    self.entries = entries
    self.knownOffsets =
      knownOffsets + Array(repeating: nil, count: entries.count - knownOffsets.count)
    var byName: [String: Int] = [:]
    var byKeyPath = inheritedKeyPaths
    var byOffset: [Int: Int] = [:]
    var problems: [String] = []
    if entries.count > Int(UInt16.max) {
      // A trigger keeps its key's index in 16 bits (see `Trigger`).
      problems.append("\(entries.count) keys are more than the \(UInt16.max) a class may have")
    }
    for (index, entry) in entries.enumerated() {
      if entry.name.isEmpty || entry.name.contains(".") || entry.name.hasPrefix("@") {
        problems.append("\"\(entry.name)\" is not a valid key name")
      }
      if byName.updateValue(index, forKey: entry.name) != nil,
        !problems.contains("\"\(entry.name)\" is declared twice")
      {
        problems.append("\"\(entry.name)\" is declared twice")
      }
      if let keyPath = entry.keyPath, byKeyPath[keyPath].map({ $0 >= index }) ?? true {
        byKeyPath[keyPath] = index
      }
      if let offset = self.knownOffsets[index] { byOffset[offset] = index }
    }
    if !problems.isEmpty {
      fatalError("\(typeName).observableKeys: " + problems.joined(separator: "; "))
    }
    indexByName = byName
    indexByKeyPath = byKeyPath
    indexByOffset = byOffset
    probedOffsets = .allocate(capacity: max(1, entries.count))
    for index in 0..<max(1, entries.count) {
      (UnsafeMutableRawPointer(probedOffsets + index)).initializeMemory(
        as: Int.self, repeating: Int.min, count: 1)
    }
  }

  deinit {
    // A class's table lives as long as the process, but the table of a declaration
    // (``ObservableKeys``) and one made by a thread that lost the race to store its class's
    // (``of(_:)``) are released.
    probedOffsets.deallocate()
  }

  /// The index of `keyPath` if it is one stored key (not derived) declared or learned, whose
  /// getter on `object` returns what its storage holds (`object` is of the class whose property
  /// it is, see ``KeyEntry/readsStorage(of:)``); `nil` otherwise.
  @usableFromInline
  func directIndex(of keyPath: AnyKeyPath, on object: AnyObject) -> Int? {
    index(of: keyPath).flatMap {
      entries[$0].role == .derived || !entries[$0].readsStorage(of: object) ? nil : $0
    }
  }

  /// The index of `keyPath` if it is one key, declared or learned; `nil` if it is not known
  /// (it may still be one: see ``resolve(_:probing:reading:)``).
  func index(of keyPath: AnyKeyPath) -> Int? {
    if let hit = cacheLock.withLock({ recent.last(where: { $0.keyPath === keyPath }) }) {
      return hit.index
    }
    let index = indexByKeyPath[keyPath] ?? cacheLock.withLock { learnedIndexes[keyPath] }
    cacheLock.withLock {
      if recent.count == 32 { recent.removeFirst() }
      recent.append((keyPath, index))
    }
    return index
  }

  /// Remembers that `keyPath` names key `index` (found by probing).
  func learn(_ keyPath: AnyKeyPath, index: Int) {
    cacheLock.withLock {
      // A miss remembered for this key path is one no longer.
      recent.removeAll { $0.index == nil && $0.keyPath == keyPath }
      learnedIndexes[keyPath] = index
      if learnedKeyPaths[index] == nil { learnedKeyPaths[index] = keyPath }
    }
  }

  /// The key path of key `index`: declared, or learned by probing.
  func keyPath(ofKey index: Int) -> AnyKeyPath? {
    entries[index].keyPath ?? cacheLock.withLock { learnedKeyPaths[index] }
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

  /// The key closest to `name`, if it is close enough to suggest.
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
