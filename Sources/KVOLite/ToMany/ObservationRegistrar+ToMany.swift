import Foundation

/// How an array changes under a to-many mutation.
struct ToManyMutation<Element> {
  let kind: KeyValueChangeKind
  /// Ascending. For an insertion, positions in the resulting array.
  let indexes: IndexSet
  /// The inserted or replacing elements, one per index (empty for a removal).
  let elements: [Element]

  /// Throws unless the mutation fits an array of `count` elements.
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

  func apply(to array: inout [Element]) {
    switch kind {
    case .insertion:
      for (index, element) in zip(indexes, elements) { array.insert(element, at: index) }
    case .removal:
      for index in indexes.reversed() { array.remove(at: index) }
    case .replacement:
      for (index, element) in zip(indexes, elements) { array[index] = element }
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
  /// - Parameter makeMutation: Builds the mutation from the array's current count (which only
  ///   the lock makes stable: an append computes its indexes from it).
  func mutateToMany<Element>(
    _ object: AnyObject, key index: Int, path: String,
    _ makeMutation: (_ count: Int) -> ToManyMutation<Element>
  ) throws(KeyValueError) {
    lock.lock()
    let storage = self.storage(of: object, key: index, as: Observed<[Element]>.self)
    let current = storage.pointee.value
    let mutation = makeMutation(current.count)
    do {
      try mutation.validate(count: current.count, path: path)
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
      mutation.kind == .insertion ? nil : mutation.indexes.map { current[$0] }
    lock.unlock()
    let frame = willChange(
      object, triggers: triggers, kind: mutation.kind, indexes: mutation.indexes, old: removed)
    lock.lock()
    // Another thread may have changed the array meanwhile: apply only what still fits.
    let fits = (try? mutation.validate(count: storage.pointee.value.count, path: path)) != nil
    if fits { mutation.apply(to: &storage.pointee.value) }
    lock.unlock()
    guard fits else { return }
    didChange(object, frame, new: mutation.kind == .removal ? nil : mutation.elements)
  }
}
