import KVOLiteLocking

/// Stops the echo of a two-way binding: the last value that crossed, in either direction.
///
/// A value mirrored from the model into the view model is published by the view model, whose
/// side would write it straight back into the model (and the reverse). `removeDuplicates()`
/// cannot stop that, because the echoed value is new to the other side. Both sides ask one
/// guard instead: a value equal to the last one that crossed is an echo.
///
/// Thread-safe. `Value`'s `==` runs without the lock: the guard copies the last value out,
/// compares, and stores the new one only if no other crossing happened meanwhile (otherwise it
/// compares again), so checking and storing are still one step, and the value a crossing
/// replaces is released after unlocking.
final class EchoGuard<Value: Equatable>: @unchecked Sendable {
  // @unchecked: `last` and `generation` are behind `lock`.
  private let lock = Lock()
  private var last: Value?
  /// Counts the crossings, so that a store can tell whether another one came first.
  private var generation: UInt64 = 0

  init() {}

  /// Whether `value` should cross to the other side; if so, it becomes the last value.
  func crossing(_ value: Value) -> Bool {
    while true {
      let (current, seen) = lock.withLock { (last, generation) }
      if let current, current == value { return false }
      lock.lock()
      guard generation == seen else {
        lock.unlock()
        continue  // Another value crossed meanwhile: compare with that one.
      }
      let replaced = last
      last = value
      generation &+= 1
      lock.unlock()
      _ = replaced  // Released here, after unlocking.
      return true
    }
  }
}
