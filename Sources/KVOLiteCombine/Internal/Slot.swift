import KVOLiteLocking

/// A place for at most one value, noncopyable: what an operator or subscriber keeps until it
/// ends (its downstream, its object, its closure), or the previous value it compares with.
///
/// A one-element buffer rather than an `Optional`: the Combine classes run unspecialized
/// (through their vtables) wherever they are built in another module, and there every use of
/// an `Optional` of a generic type looks up its metadata at run time, which costs more than
/// the work of a value. One allocation holds whether the slot is full and the value; the
/// methods do not mutate the slot itself, so an owner keeps it in a `let`. Not thread-safe: the
/// owner guards it with its lock, and releases what ``take()`` gives up after unlocking (a
/// release may run a `deinit`).
@usableFromInline
struct Slot<Value>: ~Copyable {
  /// The flag (one byte) at offset 0, the value at ``valueOffset``.
  @usableFromInline let base: UnsafeMutableRawPointer

  @inlinable static var valueOffset: Int { Swift.max(MemoryLayout<Value>.alignment, 1) }

  /// An empty slot.
  @inlinable init() {
    base = .allocate(
      byteCount: Slot.valueOffset + MemoryLayout<Value>.size,
      alignment: Swift.max(MemoryLayout<Value>.alignment, 1))
    base.storeBytes(of: false, as: Bool.self)
  }

  /// A slot holding `value`.
  @inlinable init(_ value: Value) {
    self.init()
    fill(value)
  }

  deinit {
    if isFull { storage.deinitialize(count: 1) }
    base.deallocate()
  }

  @inlinable var storage: UnsafeMutablePointer<Value> {
    (base + Slot.valueOffset).assumingMemoryBound(to: Value.self)
  }

  /// Whether the slot holds a value.
  @inlinable var isFull: Bool { base.load(as: Bool.self) }

  /// A copy of the value.
  /// - Precondition: the slot is full.
  @inlinable var value: Value { storage.pointee }

  /// The value, or `nil` if the slot is empty (for paths where an `Optional` costs nothing
  /// that matters).
  @inlinable var valueIfFull: Value? { isFull ? storage.pointee : nil }

  /// Puts `value` in an empty slot.
  @inlinable func fill(_ value: Value) {
    (base + Slot.valueOffset).initializeMemory(as: Value.self, to: value)
    base.storeBytes(of: true, as: Bool.self)
  }

  /// Puts `value` in a full slot and returns the value it replaces.
  @inlinable func replace(with value: Value) -> Value {
    let old = storage.move()
    storage.initialize(to: value)
    return old
  }

  /// Empties the slot and returns its value; `nil` if it was empty.
  @inlinable func take() -> Value? {
    guard isFull else { return nil }
    base.storeBytes(of: false, as: Bool.self)
    return storage.move()
  }
}
