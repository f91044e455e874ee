import Foundation

/// A type-erased proxy for an array that a string key path names, whose every mutation
/// notifies observers of the key with the exact kind, indexes and elements: what Foundation's
/// `mutableArrayValue(forKey:)` and `mutableArrayValue(forKeyPath:)` return.
///
///     let items = try order.mutableArrayValue(forKey: "items")
///     try items.append(LineItem("Pen", price: 2))   // insertion at [count]
///     try items.remove(at: 0)                       // removal at [0]
///     let tags = try order.mutableArrayValue(forKey: "tags")   // an array of values
///     try tags.insert("gift", at: 0)
///
/// It works on a to-many relationship (an ``Observed`` array of objects, or one kept by
/// ``IndexedAccessors``) and on an ``Observed`` array of values, as Foundation's proxy works on
/// any array. Observers of the key get ``KeyValueChangeKind/insertion``,
/// ``KeyValueChangeKind/removal`` or ``KeyValueChangeKind/replacement`` with the indexes
/// (`newValue` the inserted elements, `oldValue` the removed ones); observers of an operator or
/// a derived key over it get a setting. Foundation's `NSMutableArray` methods are these:
/// `add(_:)` is ``append(_:)``, `insert(_:at:)` ``insert(_:at:)-(Any,_)``, `removeObject(at:)`
/// ``remove(at:)-(Int)``, `replaceObject(at:with:)` ``replace(at:with:)-(Int,_)``,
/// `removeAllObjects()` ``removeAll()``.
///
/// The proxy is live (it reads the array as it is) and holds the object that owns the array
/// strongly; it is meant to be used and dropped. Mutations are checked and applied under the
/// object's lock, from any thread, as ``KeyValueArray``'s are (an append appends at the end as
/// it is then); an array kept by ``IndexedAccessors`` is serialized by its owner. A mutation
/// that fails (an element of the wrong type, an index out of range) changes nothing. For the
/// typed proxy of a typed key path, see ``KeyValueObservable/mutableArrayValue(for:)``.
public struct AnyKeyValueArray {
  private let owner: any KeyValueObservable
  private let key: KeyStep
  /// The key path as given, for errors.
  private let path: String

  /// The proxy of `key` of `owner`.
  /// - Throws: ``KeyValueError`` if the key is not an array that can be mutated by index.
  init(owner: any KeyValueObservable, key: KeyStep, path: String) throws(KeyValueError) {
    guard key.entry.mutateErased != nil || key.entry.mutateThroughAccessors != nil else {
      throw .typeMismatch(
        path: path, expected: "an array", actual: key.entry.role.description.withArticle)
    }
    if key.entry.mutateThroughAccessors == nil,
      try key.table.storage(ofKey: key.index, probing: owner).offset == nil
    {
      throw .notObservable(key: key.entry.name, type: key.table.typeName)
    }
    self.owner = owner
    self.key = key
    self.path = path
  }

  private init(_ proxy: AnyKeyValueArray, path: String) {
    owner = proxy.owner
    key = proxy.key
    self.path = path
  }

  /// This proxy, naming `before` in front of its path in errors.
  func continued(after before: String) -> AnyKeyValueArray {
    AnyKeyValueArray(self, path: before.isEmpty ? path : before + "." + path)
  }

  /// The elements now.
  public var elements: [Any] {
    if let elements = key.entry.elements { return elements(owner) }
    return key.entry.value(owner) as? [Any] ?? []
  }

  /// The number of elements now.
  public var count: Int {
    key.entry.elementCount?(owner) ?? elements.count
  }

  /// Appends an element (an insertion at the end).
  /// - Throws: ``KeyValueError/typeMismatch(path:expected:actual:)`` for an element of
  ///   another type.
  public func append(_ element: Any) throws(KeyValueError) {
    try append(contentsOf: [element])
  }

  /// Appends elements (one insertion of all of them at the end); nothing if there are none.
  public func append(contentsOf newElements: [Any]) throws(KeyValueError) {
    guard !newElements.isEmpty else { return }
    try mutate(.insertion, at: nil, newElements)
  }

  /// Inserts an element at `index`, which may be ``count``.
  /// - Throws: ``KeyValueError``: an index out of range, an element of another type.
  public func insert(_ element: Any, at index: Int) throws(KeyValueError) {
    try mutate(.insertion, at: [index], [element])
  }

  /// Inserts elements at `indexes`, positions in the resulting array (Foundation's
  /// `insert(_:at:)` with an index set).
  public func insert(_ newElements: [Any], at indexes: IndexSet) throws(KeyValueError) {
    try mutate(.insertion, at: Array(indexes), newElements)
  }

  /// Removes the element at `index`.
  /// - Throws: ``KeyValueError/indexOutOfRange(index:count:path:)``.
  public func remove(at index: Int) throws(KeyValueError) {
    try mutate(.removal, at: [index], [])
  }

  /// Removes the elements at `indexes`.
  public func remove(at indexes: IndexSet) throws(KeyValueError) {
    try mutate(.removal, at: Array(indexes), [])
  }

  /// Removes every element (one removal of all indexes; nothing if it is empty).
  public func removeAll() throws(KeyValueError) {
    try mutate(.removal, at: nil, [])
  }

  /// Replaces the element at `index`.
  public func replace(at index: Int, with element: Any) throws(KeyValueError) {
    try mutate(.replacement, at: [index], [element])
  }

  /// Replaces the elements at `indexes`, one new element per index.
  public func replace(at indexes: IndexSet, with newElements: [Any]) throws(KeyValueError) {
    try mutate(.replacement, at: Array(indexes), newElements)
  }

  private func mutate(_ kind: KeyValueChangeKind, at indexes: [Int]?, _ elements: [Any])
    throws(KeyValueError)
  {
    try key.mutate(owner, kind, at: indexes, elements: elements, path: path)
  }
}
