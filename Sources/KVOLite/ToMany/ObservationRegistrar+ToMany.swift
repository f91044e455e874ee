import Foundation

/// How an array changes under a to-many mutation.
@usableFromInline
struct ToManyMutation<Element> {
  @usableFromInline let kind: KeyValueChangeKind
  /// Ascending. For an insertion, positions in the resulting array. (An array rather than an
  /// `IndexSet`, which is only built when someone is notified: it is slow to build on Linux.)
  @usableFromInline let indexes: [Int]
  /// The inserted or replacing elements, one per index (empty for a removal).
  @usableFromInline let elements: [Element]

  @inlinable
  init(kind: KeyValueChangeKind, indexes: [Int], elements: [Element]) {
    self.kind = kind
    self.indexes = indexes
    self.elements = elements
  }

  /// Throws unless the mutation fits an array of `count` elements.
  @inlinable
  func validate(count: Int, path: String) throws(KeyValueError) {
    if kind != .removal, elements.count != indexes.count {
      throw .countMismatch(path: path, indexes: indexes.count, elements: elements.count)
    }
    var length = count
    for index in indexes {
      switch kind {
      case .insertion:
        guard index <= length else { throw .indexOutOfRange(index: index, count: length, path: path) }
        length += 1
      default:
        guard index < count else { throw .indexOutOfRange(index: index, count: count, path: path) }
      }
    }
  }

  @inlinable
  func apply(to array: inout [Element]) {
    switch kind {
    case .insertion:
      if indexes.first == array.count, indexes.count == 1 || indexes.last == array.count + indexes.count - 1 {
        array.append(contentsOf: elements)  // The common case: an append.
      } else {
        for position in indexes.indices { array.insert(elements[position], at: indexes[position]) }
      }
    case .removal:
      for index in indexes.reversed() { array.remove(at: index) }
    case .replacement:
      for position in indexes.indices { array[indexes[position]] = elements[position] }
    case .setting:
      break
    }
  }
}

extension ObservationRegistrar {
  /// Applies a to-many mutation to the stamped ``Observed`` array of key `index`, notifying its
  /// observers: observers of the key itself get the mutation's kind, indexes and elements (old:
  /// the removed or replaced elements; new: the inserted or replacing ones), everyone else a
  /// setting. The mutation is checked and applied under the lock, so it is atomic.
  ///
  /// - Parameter makeMutation: Builds the mutation from the array as it is (which only the lock
  ///   makes stable: an append computes its indexes from it). It must not keep the array.
  @inlinable
  func mutateToMany<Element>(
    _ object: AnyObject, key index: Int, path: String,
    _ makeMutation: (_ elements: [Element]) -> ToManyMutation<Element>
  ) throws(KeyValueError) {
    lock.lock()
    // No copy of the array is kept across the mutation: it would make the mutation copy the
    // whole array.
    let storage = self.storage(of: object, key: index, as: Observed<[Element]>.self)
    let count = storage.pointee.value.count
    let mutation = makeMutation(storage.pointee.value)
    do {
      try mutation.validate(count: count, path: path)
    } catch {
      lock.unlock()
      throw error
    }
    guard !mutation.indexes.isEmpty else {
      lock.unlock()
      return
    }
    guard isObserved(index), slots[index].notifiesAutomatically else {
      mutation.apply(to: &storage.pointee.value)
      lock.unlock()
      return
    }
    let triggers = slots[index].triggers
    let removed: [Element]? =
      mutation.kind == .insertion ? nil : mutation.indexes.map { storage.pointee.value[$0] }
    lock.unlock()
    let frame = willChange(
      object, triggers: triggers, kind: mutation.kind, indexes: IndexSet(mutation.indexes),
      old: removed)
    lock.lock()
    // Another thread may have changed the array meanwhile: apply only what still fits.
    let fits = (try? mutation.validate(count: storage.pointee.value.count, path: path)) != nil
    if fits { mutation.apply(to: &storage.pointee.value) }
    lock.unlock()
    guard fits else { return }
    didChange(object, frame, new: mutation.kind == .removal ? nil : mutation.elements)
  }
}
