import Foundation

/// A proxy for a to-many relationship whose every mutation notifies its observers with the
/// exact kind, indexes and elements: Foundation's `mutableArrayValue(forKey:)`.
///
///     let contents = try package.mutableArrayValue(for: \.contents)
///     contents.append(book)            // insertion at [count]
///     try contents.remove(at: 0)        // removal at [0]
///
/// Observers of the relationship itself get ``KeyValueChangeKind/insertion``,
/// ``KeyValueChangeKind/removal`` or ``KeyValueChangeKind/replacement`` with the indexes;
/// `newValue` holds the inserted elements and `oldValue` the removed ones. Observers of derived
/// keys or operators over it (`contents.@count`) get a setting with whole values. Assigning the
/// whole array through the property remains a setting.
///
/// The proxy is live (it reads the current array) and holds its object strongly; it is meant to
/// be used and dropped. Each mutation is atomic and may be made from any thread. A mutation
/// with an index out of range throws and changes nothing.
public struct KeyValueArray<Root: KeyValueObservable, Element> {
  private let object: Root
  private let index: Int
  private let name: String

  init(object: Root, index: Int, name: String) {
    self.object = object
    self.index = index
    self.name = name
  }

  /// The elements now.
  public var elements: [Element] {
    (object.observationRegistrar.lock.withLock {
      object.observationRegistrar.storage(of: object, key: index, as: Observed<[Element]>.self)
        .pointee.value
    })
  }

  /// The number of elements now.
  public var count: Int { elements.count }

  /// Appends one element (an insertion at the end).
  public func append(_ element: Element) {
    append(contentsOf: [element])
  }

  /// Appends elements (one insertion of all of them at the end).
  public func append(contentsOf newElements: [Element]) {
    guard !newElements.isEmpty else { return }
    // The end is only known under the lock, so the indexes are computed there. An insertion at
    // the end always fits, so this cannot throw.
    try? object.observationRegistrar.mutateToMany(object, key: index, path: name) { count in
      ToManyMutation(
        kind: .insertion, indexes: IndexSet(count..<count + newElements.count),
        elements: newElements)
    }
  }

  /// Inserts an element at `position`, which may be `count`.
  public func insert(_ element: Element, at position: Int) throws(KeyValueError) {
    try insert([element], at: IndexSet(integer: position))
  }

  /// Inserts elements at `indexes`, positions in the resulting array (as Foundation's
  /// `insertObjects(_:at:)`).
  public func insert(_ newElements: [Element], at indexes: IndexSet) throws(KeyValueError) {
    try mutate(.insertion, indexes, newElements)
  }

  /// Removes and returns the element at `position`.
  @discardableResult
  public func remove(at position: Int) throws(KeyValueError) -> Element {
    let current = elements
    guard current.indices.contains(position) else {
      throw .indexOutOfRange(index: position, count: current.count, path: name)
    }
    try remove(at: IndexSet(integer: position))
    return current[position]
  }

  /// Removes the elements at `indexes`.
  public func remove(at indexes: IndexSet) throws(KeyValueError) {
    try mutate(.removal, indexes, [])
  }

  /// Removes every element (one removal of all indexes; nothing if it is empty).
  public func removeAll() {
    try? object.observationRegistrar.mutateToMany(object, key: index, path: name) { count in
      ToManyMutation<Element>(kind: .removal, indexes: IndexSet(0..<count), elements: [])
    }
  }

  /// Replaces the element at `position`.
  public func replace(at position: Int, with element: Element) throws(KeyValueError) {
    try replace(at: IndexSet(integer: position), with: [element])
  }

  /// Replaces the elements at `indexes`, one new element per index.
  public func replace(at indexes: IndexSet, with newElements: [Element]) throws(KeyValueError) {
    try mutate(.replacement, indexes, newElements)
  }

  private func mutate(_ kind: KeyValueChangeKind, _ indexes: IndexSet, _ newElements: [Element])
    throws(KeyValueError)
  {
    try object.observationRegistrar.mutateToMany(object, key: index, path: name) { _ in
      ToManyMutation(kind: kind, indexes: indexes, elements: newElements)
    }
  }
}

extension KeyValueObservable {
  /// A proxy that mutates a declared to-many relationship with notifications of insertions,
  /// removals and replacements. See ``KeyValueArray``.
  ///
  /// - Throws: ``KeyValueError/undeclaredKeyPath(keyPath:type:)`` if `keyPath` is not a
  ///   declared key, ``KeyValueError/typeMismatch(path:expected:actual:)`` if it is not a
  ///   to-many relationship, ``KeyValueError/notObservable(key:type:)`` if it is not an
  ///   ``Observed`` property.
  public func mutableArrayValue<Element>(for keyPath: ReferenceWritableKeyPath<Self, [Element]>)
    throws(KeyValueError) -> KeyValueArray<Self, Element>
  {
    let table = Self.observableKeys.table
    guard let index = table.declaredIndex(of: keyPath) else {
      throw .undeclaredKeyPath(keyPath: KeyTable.describe(keyPath), type: table.typeName)
    }
    let entry = table.entries[index]
    guard entry.role == .toMany else {
      throw .typeMismatch(
        path: entry.name, expected: "a to-many relationship", actual: entry.role.description)
    }
    try observationRegistrar.stamp(self, key: index, entry: entry, typeName: table.typeName)
    guard observationRegistrar.lock.withLock({ observationRegistrar.slots[index].storageOffset >= 0 })
    else {
      throw .notObservable(key: entry.name, type: table.typeName)
    }
    return KeyValueArray(object: self, index: index, name: entry.name)
  }
}
