import Synchronization

/// Which dynamic types are `Optional`s, remembered per type.
///
/// Values reach key-value coding and string observations boxed as `Any`, and every one is
/// checked for an optional inside (see ``KeyEntry/box(_:)``). The cast that checks costs a
/// protocol-conformance lookup in the runtime, about 1,300 instructions a value; most values
/// are not optionals, and a type's answer never changes, so it is asked once per type. The
/// table only grows by the types a program boxes.
enum OptionalTypes {
  private static let known = Mutex<[ObjectIdentifier: Bool]>([:])

  /// Whether `type` is an `Optional`.
  static func contains(_ type: any Any.Type) -> Bool {
    let key = ObjectIdentifier(type)
    if let answer = known.withLock({ $0[key] }) { return answer }
    let answer = type is any OptionalProtocol.Type
    known.withLock { $0[key] = answer }
    return answer
  }
}
