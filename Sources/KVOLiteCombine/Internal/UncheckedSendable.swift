/// Carries a value across threads where the code guarantees the crossing is safe (documented at
/// each use).
package struct UncheckedSendable<Value>: @unchecked Sendable {
  package let value: Value
  package init(_ value: Value) { self.value = value }
}
