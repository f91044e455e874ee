import Foundation
import KVOLiteLocking

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
        guard index <= length else {
          throw .indexOutOfRange(index: index, count: length, path: path)
        }
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
      if indexes.first == array.count,
        indexes.count == 1 || indexes.last == array.count + indexes.count - 1
      {
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

extension ToManyMutation {
  /// Applies a to-many mutation to the ``Observed`` array at `storage` (key `index` of
  /// `object`), notifying its observers: observers of the key itself get the mutation's kind,
  /// indexes and elements (old: the removed or replaced elements; new: the inserted or
  /// replacing ones), everyone else a setting. The mutation is checked and applied under the
  /// object's lock, so it is atomic.
  ///
  /// - Parameter makeMutation: Builds the mutation from the array as it is (which only the lock
  ///   makes stable: an append computes its indexes from it). It must not keep the array.
  @inlinable
  static func apply(
    to object: AnyObject, registrar: ObservationRegistrar, key index: Int,
    storage: UnsafeMutablePointer<Observed<[Element]>>, path: String,
    _ makeMutation: (_ elements: [Element]) -> ToManyMutation<Element>
  ) throws(KeyValueError) {
    let lock = PropertyLock(for: Unmanaged.passUnretained(object).toOpaque())
    lock.lock()
    StorageState.waitWhileModified(UnsafeMutableRawPointer(storage), lock)
    // No copy of the array is kept across the mutation: it would make the mutation copy the
    // whole array.
    let mutation = makeMutation(storage.pointee.value)
    do {
      try mutation.validate(count: storage.pointee.value.count, path: path)
    } catch {
      lock.unlock()
      throw error
    }
    guard !mutation.indexes.isEmpty else { return lock.unlock() }
    let state = storage.pointee.state
    // The context is held by the registrar, held by the object, held by the caller.
    guard state & StorageState.observed != 0,
      let context = registrar.existingContextUnretained?.takeUnretainedValue(),
      let list = context.beginDelivery(key: index)
    else {
      // The elements that leave are released after unlocking (a release may run a deinit).
      let leaving =
        mutation.kind == .insertion ? [] : mutation.indexes.map { storage.pointee.value[$0] }
      mutation.apply(to: &storage.pointee.value)
      // Nobody is left to notify: clear the observed bit, as a set would.
      storage.pointee.state = StorageState.afterSet(state) & ~StorageState.observed
      lock.unlock()
      withExtendedLifetime(leaving) {}
      return
    }
    let removed: [Element]? =
      mutation.kind == .insertion ? nil : mutation.indexes.map { storage.pointee.value[$0] }
    lock.unlock()
    // The elements that leave are released once the delivery has ended: a `deinit` may end an
    // observation of this key, which waits for deliveries of the list this thread is in.
    var leaving: [Element]? = nil
    defer {
      context.endDelivery(list)
      withExtendedLifetime(leaving) {}
    }
    var frame = ChangeFrame.willChange(
      object, list: list, kind: mutation.kind, indexes: IndexSet(mutation.indexes), old: removed)
    // The will-time notifications ran without the lock, so another thread may have changed the
    // array meanwhile: the mutation is made again from the array as it is now (an append goes
    // to the end as it is now), checked again, and applied or thrown, so that nothing is lost
    // silently. Observers saw the prior notification of the first attempt only.
    lock.lock()
    StorageState.waitWhileModified(UnsafeMutableRawPointer(storage), lock)
    let final = makeMutation(storage.pointee.value)
    do {
      try final.validate(count: storage.pointee.value.count, path: path)
    } catch {
      lock.unlock()
      throw error
    }
    guard !final.indexes.isEmpty else { return lock.unlock() }  // A removeAll of nothing left.
    let finalRemoved: [Element]? =
      final.kind == .insertion ? nil : final.indexes.map { storage.pointee.value[$0] }
    final.apply(to: &storage.pointee.value)
    storage.pointee.state = StorageState.afterSet(storage.pointee.state)
    lock.unlock()
    leaving = finalRemoved
    if final.indexes != mutation.indexes { frame.indexes = IndexSet(final.indexes) }
    frame.didChange(object, old: finalRemoved, new: final.kind == .removal ? nil : final.elements)
  }
}

/// Any array: how a key whose value is an array, of objects or of values, gets its
/// type-erased mutations (``KeyEntry/mutateErased``), as Foundation's `mutableArrayValue`
/// works on any array.
protocol MutableArrayValue {
  /// The `mutateErased` closure of a key holding this array type.
  static var erasedMutator:
    (AnyObject, Int, UnsafeMutableRawPointer, String, KeyValueChangeKind, [Int]?, [Any])
      throws(KeyValueError) -> Void
  { get }
}

extension Array: MutableArrayValue {
  static var erasedMutator:
    (AnyObject, Int, UnsafeMutableRawPointer, String, KeyValueChangeKind, [Int]?, [Any])
      throws(KeyValueError) -> Void
  { KeyEntry.erasedMutator(Element.self) }
}
