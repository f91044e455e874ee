/// Carries a value across threads where the code guarantees the crossing is safe (documented at
/// each use).
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
