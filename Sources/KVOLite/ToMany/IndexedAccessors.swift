import Foundation

/// Foundation's indexed accessor pattern for a to-many relationship: the relationship is not
/// an array property but four functions — how many elements, the element at an index, insert
/// one at an index, remove the one at an index — over whatever storage the type keeps.
///
/// Declare the key with ``ObservableKey/toMany(_:accessors:)``. Key-value coding reads the
/// relationship through `count` and `element` (`boxes.0.weight`, `boxes.@count`, the whole
/// array); ``KeyValueObservable/mutateToMany(_:forKeyPath:at:elements:)`` changes it through
/// `insert` and `remove`, notifying observers once per change with the exact indexes, as
/// Foundation's `mutableArrayValue(forKey:)` does over such accessors.
///
/// ## Threads
///
/// The accessors are your code, so KVOLite never calls them under a lock of its own; and it
/// calls them in sequences — the count, then the elements; the count, a check of the indexes,
/// then `insert` or `remove` — that are right only if nothing else changes the relationship
/// in between. As with Foundation's accessors, keeping those sequences apart is the owner's
/// business: a relationship changed from several threads needs every use of it serialized by
/// its owner — each ``KeyValueObservable/mutateToMany(_:forKeyPath:at:elements:)``, each
/// key-value read through it, and each registration of an observation through it — for
/// example under one lock of the type (recursive, if observers read the relationship back).
/// KVOLite calls the accessors only on the thread of such a call: observers of the
/// relationship, of a key of its elements (`boxes.weight`) or of an operator over them
/// (`boxes.@sum.weight`) read it on the thread that changed it, never on a thread that only
/// changed an element. Under that serialization, the indexes given to `element` and `remove`
/// are in range, and to `insert` at most the count. (A relationship shared between threads
/// without it should be an ``Observed`` array: its mutations through
/// ``KeyValueObservable/mutableArrayValue(for:)`` are atomic.)
public struct IndexedAccessors<Root: AnyObject, Element: KeyValueObservable> {
  let count: (Root) -> Int
  let element: (Root, Int) -> Element
  let insert: (Root, Element, Int) -> Void
  let remove: (Root, Int) -> Void

  /// The four accessors: Foundation's `countOf…`, `objectIn…AtIndex:`,
  /// `insertObject:in…AtIndex:` and `removeObjectFrom…AtIndex:`. KVOLite checks indexes against
  /// the count before it calls `element`, `insert` or `remove`, so they are in range as long as
  /// the owner serializes the relationship's uses (see "Threads" above).
  public init(
    count: @escaping (Root) -> Int, element: @escaping (Root, Int) -> Element,
    insert: @escaping (Root, Element, Int) -> Void, remove: @escaping (Root, Int) -> Void
  ) {
    self.count = count
    self.element = element
    self.insert = insert
    self.remove = remove
  }

  /// Every element, in order.
  func elements(of root: Root) -> [Element] {
    (0..<count(root)).map { element(root, $0) }
  }
}

extension ObservableKey {
  /// A to-many relationship kept by indexed accessors instead of an array property (see
  /// ``IndexedAccessors``). It notifies through the changes made with
  /// ``KeyValueObservable/mutateToMany(_:forKeyPath:at:elements:)`` (or by hand, with
  /// ``KeyValueObservable/willChange(_:valuesAt:forKey:)``), not on its own; it cannot be set as
  /// a whole, and having no property, it has no typed key path (``keyPath`` is `\Root.self`).
  public static func toMany<Element: KeyValueObservable>(
    _ name: String, accessors: IndexedAccessors<Root, Element>
  ) -> ObservableKey {
    let entry = KeyEntry(
      name: name, keyPath: \Root.self, role: .toMany, valueType: [Element].self,
      storedType: [Element].self, notifiesAutomatically: false,
      value: { accessors.elements(of: unsafeDowncast($0, to: Root.self)) })
    entry.elements = { accessors.elements(of: unsafeDowncast($0, to: Root.self)) }
    entry.elementCount = { accessors.count(unsafeDowncast($0, to: Root.self)) }
    entry.element = { object, index in
      let root = unsafeDowncast(object, to: Root.self)
      let count = accessors.count(root)
      return (index < count ? accessors.element(root, index) : nil, count)
    }
    entry.elementKeys = { KeyTable.of(Element.self) }
    entry.mutateThroughAccessors = { object, path, kind, indexes, given throws(KeyValueError) in
      let root = unsafeDowncast(object, to: Root.self)
      let owner = object as! any KeyValueObservable
      var typed: [Element] = []
      for value in given {
        guard let element = value as? Element else {
          throw .typeMismatch(
            path: path, expected: typeName(Element.self), actual: typeName(type(of: value)))
        }
        typed.append(element)
      }
      let expected = kind == .removal ? 0 : indexes.count
      guard typed.count == expected else {
        throw .countMismatch(path: path, indexes: indexes.count, elements: typed.count)
      }
      // Insertion indexes are positions in the result, in ascending order; the others must be
      // elements now.
      let count = accessors.count(root)
      let limit = kind == .insertion ? count + indexes.count : count
      for index in indexes where index < 0 || index >= limit {
        throw .indexOutOfRange(index: index, count: count, path: path)
      }
      let set = IndexSet(indexes)
      try owner.willChange(kind, valuesAt: set, forKey: name)
      switch kind {
      case .insertion:
        for (index, element) in zip(set, typed) { accessors.insert(root, element, index) }
      case .removal:
        for index in set.reversed() { accessors.remove(root, index) }
      case .replacement:
        for (index, element) in zip(set, typed) {
          accessors.remove(root, index)
          accessors.insert(root, element, index)
        }
      case .setting: break
      }
      try owner.didChange(kind, valuesAt: set, forKey: name)
    }
    return ObservableKey(entry: entry)
  }
}
