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
@usableFromInline
final class EchoGuard<Value: Equatable>: @unchecked Sendable {
  // @unchecked: `last`, `hasLast` and `generation` are behind `lock`.
  private let lock = Lock()
  /// The last value that crossed, once `hasLast`. A one-element buffer rather than a `Value?`:
  /// the binding's closures run unspecialized in the client (they are generic code of another
  /// module), and there each use of a `Value?` would look up its type metadata at run time.
  private let last = UnsafeMutablePointer<Value>.allocate(capacity: 1)
  private var hasLast = false
  /// Counts the crossings, so that a store can tell whether another one came first.
  private var generation: UInt64 = 0

  @usableFromInline init() {}

  deinit {
    if hasLast { last.deinitialize(count: 1) }
    last.deallocate()
  }

  /// Whether `value` should cross to the other side; if so, it becomes the last value.
  @usableFromInline func crossing(_ value: Value) -> Bool {
    while true {
      lock.lock()
      guard hasLast else {
        last.initialize(to: value)
        hasLast = true
        generation &+= 1
        lock.unlock()
        return true
      }
      let current = last.pointee
      let seen = generation
      lock.unlock()
      if current == value { return false }
      lock.lock()
      guard generation == seen else {
        lock.unlock()
        continue  // Another value crossed meanwhile: compare with that one.
      }
      let replaced = last.move()
      last.initialize(to: value)
      generation &+= 1
      lock.unlock()
      _ = replaced  // Released here, after unlocking.
      return true
    }
  }
}
