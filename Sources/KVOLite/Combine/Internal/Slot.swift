/// A place for at most one value, noncopyable: what an operator or subscriber keeps until it
/// ends (its downstream, its object, its closure), or the previous value it compares with.
///
/// A one-element buffer rather than an `Optional`: the Combine classes run unspecialized
/// (through their vtables) wherever they are built in another module, and there every use of
/// an `Optional` of a generic type looks up its metadata at run time, which costs more than
/// the work of a value. Not thread-safe: the owner guards it with its lock, and releases what
/// ``take()`` gives up after unlocking (a release may run a `deinit`).
@usableFromInline
struct Slot<Value>: ~Copyable {
  @usableFromInline let storage: UnsafeMutablePointer<Value>
  /// Whether the slot holds a value.
  @usableFromInline var isFull: Bool

  /// An empty slot.
  @inlinable init() {
    storage = .allocate(capacity: 1)
    isFull = false
  }

  /// A slot holding `value`.
  @inlinable init(_ value: Value) {
    storage = .allocate(capacity: 1)
    storage.initialize(to: value)
    isFull = true
  }

  deinit {
    if isFull { storage.deinitialize(count: 1) }
    storage.deallocate()
  }

  /// A copy of the value.
  /// - Precondition: the slot is full.
  @inlinable var value: Value { storage.pointee }

  /// The value, or `nil` if the slot is empty (for paths where an `Optional` costs nothing
  /// that matters).
  @inlinable var valueIfFull: Value? { isFull ? storage.pointee : nil }

  /// Puts `value` in an empty slot.
  @inlinable mutating func fill(_ value: Value) {
    storage.initialize(to: value)
    isFull = true
  }

  /// Puts `value` in a full slot and returns the value it replaces.
  @inlinable mutating func replace(with value: Value) -> Value {
    let old = storage.move()
    storage.initialize(to: value)
    return old
  }

  /// Empties the slot and returns its value; `nil` if it was empty.
  @inlinable mutating func take() -> Value? {
    guard isFull else { return nil }
    isFull = false
    return storage.move()
  }
}
