import KVOLiteLocking

/// Which dynamic types are `Optional`s, remembered per type.
///
/// Values reach key-value coding and string observations boxed as `Any`, and every one is
/// checked for an optional inside (see ``KeyEntry/box(_:)``). The cast that checks costs a
/// protocol-conformance lookup in the runtime, about 1,300 instructions a value; most values
/// are not optionals, and a type's answer never changes, so it is asked once per type. The
/// table only grows by the types a program boxes.
enum OptionalTypes {
  // Guarded by `lock` (KVOLite's `Lock`, whose atomics the thread sanitizer sees; it does not
  // model `Synchronization.Mutex`'s futex), as ``GenericKeyTables`` guards its tables.
  private static let lock = Lock(schedules: false)
  nonisolated(unsafe) private static var known: [ObjectIdentifier: Bool] = [:]

  /// Whether `type` is an `Optional`. The runtime is asked outside the lock.
  static func contains(_ type: any Any.Type) -> Bool {
    let key = ObjectIdentifier(type)
    if let answer = lock.withLock({ known[key] }) { return answer }
    let answer = type is any OptionalProtocol.Type
    lock.withLock { known[key] = answer }
    return answer
  }
}
