import Foundation
import KVOLiteLocking

/// A proxy for a to-many relationship whose every mutation notifies its observers with the
/// exact kind, indexes and elements: Foundation's `mutableArrayValue(forKey:)`.
///
///     let contents = package.mutableArrayValue(for: \.contents)
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
/// be used and dropped. Mutations may be made from any thread: each is checked and applied under
/// the object's lock. A mutation with an index out of range throws and changes nothing. When
/// the key is observed, the will-time notifications run without the lock, so another thread may
/// change the array before the mutation is applied: the mutation is then made again from the
/// array as it is (an append still appends at the end, `removeAll` removes what is there) and
/// checked again; if its indexes no longer fit, it throws and changes nothing (observers saw
/// its prior notification only). Nothing is dropped silently. Serialize structural changes to
/// one relationship if the indexes of the prior notification matter.
public struct KeyValueArray<Root: KeyValueObservable, Element> {
  // Inlinable throughout, so that clients specialize it for their element type.
  @usableFromInline let object: Root
  @usableFromInline let index: Int
  @usableFromInline let name: String
  /// The relationship's storage in `object`, which the proxy keeps alive.
  @usableFromInline let storage: UnsafeMutablePointer<Observed<[Element]>>

  @usableFromInline
  init(object: Root, index: Int, name: String, offset: Int) {
    self.object = object
    self.index = index
    self.name = name
    storage = (Unmanaged.passUnretained(object).toOpaque() + offset)
      .assumingMemoryBound(to: Observed<[Element]>.self)
  }

  /// The elements now.
  @inlinable
  public var elements: [Element] {
    let lock = PropertyLock(for: Unmanaged.passUnretained(object).toOpaque())
    lock.lock()
    StorageState.waitWhileModified(UnsafeMutableRawPointer(storage), lock)
    let elements = storage.pointee.value
    lock.unlock()
    return elements
  }

  /// The number of elements now.
  @inlinable
  public var count: Int { elements.count }

  /// Appends one element (an insertion at the end).
  @inlinable
  public func append(_ element: Element) {
    append(contentsOf: [element])
  }

  /// Appends elements (one insertion of all of them at the end).
  @inlinable
  public func append(contentsOf newElements: [Element]) {
    guard !newElements.isEmpty else { return }
    // The end is only known under the lock, so the indexes are computed there. An insertion at
    // the end always fits, so this cannot throw.
    try? mutate { (elements: [Element]) in
      let count = elements.count
      return ToManyMutation(
        kind: .insertion, indexes: Array(count..<count + newElements.count),
        elements: newElements)
    }
  }

  /// Inserts an element at `position`, which may be `count`.
  @inlinable
  public func insert(_ element: Element, at position: Int) throws(KeyValueError) {
    try mutate(.insertion, [position], [element])
  }

  /// Inserts elements at `indexes`, positions in the resulting array (as Foundation's
  /// `insertObjects(_:at:)`).
  @inlinable
  public func insert(_ newElements: [Element], at indexes: IndexSet) throws(KeyValueError) {
    try mutate(.insertion, Array(indexes), newElements)
  }

  /// Removes and returns the element at `position`.
  @discardableResult @inlinable
  public func remove(at position: Int) throws(KeyValueError) -> Element {
    var removed: Element?
    try mutate { (elements: [Element]) in
      if elements.indices.contains(position) { removed = elements[position] }
      return ToManyMutation<Element>(kind: .removal, indexes: [position], elements: [])
    }
    return removed!
  }

  /// Removes the elements at `indexes`.
  @inlinable
  public func remove(at indexes: IndexSet) throws(KeyValueError) {
    try mutate(.removal, Array(indexes), [])
  }

  /// Removes every element (one removal of all indexes; nothing if it is empty).
  @inlinable
  public func removeAll() {
    try? mutate { (elements: [Element]) in
      ToManyMutation<Element>(kind: .removal, indexes: Array(elements.indices), elements: [])
    }
  }

  /// Replaces the element at `position`.
  @inlinable
  public func replace(at position: Int, with element: Element) throws(KeyValueError) {
    try mutate(.replacement, [position], [element])
  }

  /// Replaces the elements at `indexes`, one new element per index.
  @inlinable
  public func replace(at indexes: IndexSet, with newElements: [Element]) throws(KeyValueError) {
    try mutate(.replacement, Array(indexes), newElements)
  }

  @inlinable
  func mutate(_ kind: KeyValueChangeKind, _ indexes: [Int], _ newElements: [Element])
    throws(KeyValueError)
  {
    try mutate { _ in ToManyMutation(kind: kind, indexes: indexes, elements: newElements) }
  }

  @inlinable
  func mutate(_ makeMutation: ([Element]) -> ToManyMutation<Element>) throws(KeyValueError) {
    // Swift Observation hears of the mutation as of a set of the property (only when the class
    // is `Observable`: otherwise this folds away). A mutation that throws changed nothing, but
    // its will-time was announced already; its did-time closes the transaction.
    guard Root._tracksSwiftObservation else {
      return try ToManyMutation.apply(
        to: object, registrar: object.observationRegistrar, key: index, storage: storage,
        path: name, makeMutation)
    }
    SwiftObservationBox.storageChange(of: object, key: index, will: true)
    defer { SwiftObservationBox.storageChange(of: object, key: index, will: false) }
    try ToManyMutation.apply(
      to: object, registrar: object.observationRegistrar, key: index, storage: storage, path: name,
      makeMutation)
  }
}

extension KeyValueObservable {
  /// A proxy that mutates a to-many relationship, or an array of values, with notifications of
  /// insertions, removals and replacements: Foundation's `mutableArrayValue(forKey:)`, typed.
  /// See ``KeyValueArray``.
  ///
  /// A key path that is not an array stored in an ``Observed`` property is a
  /// programming error, as in ``observe(_:options:changeHandler:)-(KeyPath<Self,Value>,_,_)``
  /// (and as Foundation raises an exception there): the program stops with a message that
  /// names the class, the key and the fix.
  public func mutableArrayValue<Element>(for keyPath: ReferenceWritableKeyPath<Self, [Element]>)
    -> KeyValueArray<Self, Element>
  {
    do {
      return try toManyProxy(for: keyPath)
    } catch {
      fatalError(
        Self.diagnosis(error, keyPath: keyPath, object: self, action: "mutate"))
    }
  }

  /// ``mutableArrayValue(for:)``, with its error thrown.
  private func toManyProxy<Element>(for keyPath: ReferenceWritableKeyPath<Self, [Element]>)
    throws(KeyValueError) -> KeyValueArray<Self, Element>
  {
    let table = KeyTable.of(self)
    let steps = try table.resolve(keyPath, probing: self) { ($0 as! Self)[keyPath: keyPath] }
    guard steps.count == 1 else {
      throw .undeclaredKeyPath(keyPath: KeyTable.describe(keyPath), type: table.typeName)
    }
    let entry = steps[0].entry
    // An array of objects (a to-many relationship) or of values, as Foundation's proxy takes.
    guard entry.role == .toMany || entry.storedType == [Element].self else {
      throw .typeMismatch(
        path: entry.name, expected: "a to-many relationship",
        actual: entry.role.description.withArticle)
    }
    let (offset, key) = try table.storage(ofKey: steps[0].index, probing: self)
    guard let offset else { throw .notObservable(key: entry.name, type: table.typeName) }
    return KeyValueArray(object: self, index: key, name: entry.name, offset: offset)
  }
}
