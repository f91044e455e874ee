import Foundation

/// Stops the echo of a two-way mirror: the last value that crossed, in either direction.
///
/// A value mirrored from the model into the view model is published by the view model, whose
/// pipe would write it straight back into the model (and the reverse). `removeDuplicates()`
/// cannot stop that, because the echoed value is new to the other pipe. Both pipes filter
/// through one guard instead: a value equal to the last one that crossed is an echo.
/// Thread-safe. `Value`'s `==` runs with the guard's lock held, so that checking and storing are
/// one step: use it with values whose equality is plain data (the view model's are `String`s),
/// never with an `==` that could reach back into the guard.
package final class MirrorGuard<Value: Equatable>: @unchecked Sendable {
  // @unchecked: `last` and `hasLast` are behind `lock`.
  private let lock = NSLock()
  /// The last value that crossed, once `hasLast`. A one-element buffer rather than a `Value?`:
  /// `crossing` runs twice per mirrored change, often unspecialized (a method reference handed
  /// to `filter` from another module is), and there each use of `Value?` looked up its metadata
  /// at run time: about 1,800 instructions a call, more than the rest of the filter stage.
  private let last = UnsafeMutablePointer<Value>.allocate(capacity: 1)
  private var hasLast = false

  package init() {}

  deinit {
    if hasLast { last.deinitialize(count: 1) }
    last.deallocate()
  }

  /// Whether `value` should cross to the other side; if so, it becomes the last value (the one
  /// it replaces is released after unlocking).
  package func crossing(_ value: Value) -> Bool {
    lock.lock()
    guard hasLast else {
      last.initialize(to: value)
      hasLast = true
      lock.unlock()
      return true
    }
    guard last.pointee != value else {
      lock.unlock()
      return false
    }
    let replaced = last.move()
    last.initialize(to: value)
    lock.unlock()
    _ = replaced
    return true
  }
}
