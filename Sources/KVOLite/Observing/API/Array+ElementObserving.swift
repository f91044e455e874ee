import Foundation

extension Array where Element: KeyValueObservable {
  /// Registers `observer` for `keyPath` on each element at `indexes`: Foundation's
  /// `addObserver(_:toObjectsAt:forKeyPath:options:context:)` of `NSArray`. Each element is
  /// registered with its own ``KeyValueObservable/addObserver(_:forKeyPath:options:context:)``
  /// (so an element that takes registrations over does), and reports its changes as the
  /// object observed; with ``ObservingOptions/initial``, each sends its own initial
  /// notification. The array itself is not observed: elements inserted later are not, and
  /// removing an element from the array does not end its registration.
  ///
  /// Nothing is half done: an index out of range throws before anything is registered, and if
  /// an element's registration throws, the registrations made on the elements before it are
  /// removed (the initial notifications they sent stay sent).
  ///
  /// - Throws: ``KeyValueError/indexOutOfRange(index:count:path:)`` (Foundation raises a range
  ///   exception), or what an element's registration throws.
  public func addObserver(
    _ observer: any KeyValueObserver, toObjectsAt indexes: IndexSet, forKeyPath keyPath: String,
    options: ObservingOptions = [], context: UnsafeMutableRawPointer? = nil
  ) throws(KeyValueError) {
    try checkIndexes(indexes, keyPath)
    var registered: [Element] = []
    for index in indexes {
      do {
        try self[index].addObserver(
          observer, forKeyPath: keyPath, options: options, context: context)
      } catch {
        for element in registered.reversed() {
          element.removeObserver(observer, forKeyPath: keyPath, context: context)
        }
        throw error
      }
      registered.append(self[index])
    }
  }

  /// Removes the most recent registration of `observer` for `keyPath` with `context` from each
  /// element at `indexes`: Foundation's
  /// `removeObserver(_:fromObjectsAt:forKeyPath:context:)` of `NSArray`. An element it was
  /// never added to is left alone, as ``KeyValueObservable/removeObserver(_:forKeyPath:context:)``
  /// leaves it.
  ///
  /// - Throws: ``KeyValueError/indexOutOfRange(index:count:path:)`` before removing anything.
  public func removeObserver(
    _ observer: any KeyValueObserver, fromObjectsAt indexes: IndexSet, forKeyPath keyPath: String,
    context: UnsafeMutableRawPointer?
  ) throws(KeyValueError) {
    try checkIndexes(indexes, keyPath)
    for index in indexes {
      self[index].removeObserver(observer, forKeyPath: keyPath, context: context)
    }
  }

  /// Removes the most recent registration of `observer` for `keyPath`, whatever its context,
  /// from each element at `indexes`: Foundation's `removeObserver(_:fromObjectsAt:forKeyPath:)`.
  ///
  /// - Throws: ``KeyValueError/indexOutOfRange(index:count:path:)`` before removing anything.
  public func removeObserver(
    _ observer: any KeyValueObserver, fromObjectsAt indexes: IndexSet, forKeyPath keyPath: String
  ) throws(KeyValueError) {
    try checkIndexes(indexes, keyPath)
    for index in indexes { self[index].removeObserver(observer, forKeyPath: keyPath) }
  }

  /// Throws for the first index of `indexes` that is not an index of the array.
  private func checkIndexes(_ indexes: IndexSet, _ keyPath: String) throws(KeyValueError) {
    if let outside = indexes.first(where: { !self.indices.contains($0) }) {
      throw .indexOutOfRange(index: outside, count: count, path: keyPath)
    }
  }
}
