import Foundation

/// Foundation's indexed accessor pattern for a to-many relationship: the relationship is not
/// an array property but four functions — how many elements, the element at an index, insert
/// one at an index, remove the one at an index — over whatever storage the type keeps.
///
/// Declare the key with ``ObservableKey/toMany(_:accessors:)``. Key-value coding reads the
/// relationship through `count` and `element` (`boxes.0.weight`, `boxes.@count`, the whole
/// array); ``KeyValueObservable/mutateToMany(_:forKeyPath:at:elements:)`` changes it through
/// `insert` and `remove`, notifying observers once per change with the exact indexes, as
/// Foundation's `mutableArrayValue(forKey:)` does over such accessors. The functions run on the
/// caller's thread, outside every KVOLite lock; making them thread-safe is the type's business.
public struct IndexedAccessors<Root: AnyObject, Element: KeyValueObservable> {
  let count: (Root) -> Int
  let element: (Root, Int) -> Element
  let insert: (Root, Element, Int) -> Void
  let remove: (Root, Int) -> Void

  /// The four accessors: Foundation's `countOf…`, `objectIn…AtIndex:`,
  /// `insertObject:in…AtIndex:` and `removeObjectFrom…AtIndex:`. Indexes given to `element`
  /// and `remove` are in range, and to `insert` at most the count: KVOLite checks them first.
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
