import Foundation

/// Stops the echo of a two-way mirror: the last value that crossed, in either direction.
///
/// A value mirrored from the model into the view model is published by the view model, whose
/// pipe would write it straight back into the model (and the reverse). `removeDuplicates()`
/// cannot stop that, because the echoed value is new to the other pipe. Both pipes filter
/// through one guard instead: a value equal to the last one that crossed is an echo.
/// Thread-safe.
package final class MirrorGuard<Value: Equatable>: @unchecked Sendable {
  // @unchecked: `last` is behind `lock`.
  private let lock = NSLock()
  private var last: Value?

  package init() {}

  /// Whether `value` should cross to the other side; if so, it becomes the last value.
  package func crossing(_ value: Value) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard value != last else { return false }
    last = value
    return true
  }
}
