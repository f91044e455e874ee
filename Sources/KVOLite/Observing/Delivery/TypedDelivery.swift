/// The fast path of delivery: a setting of a key whose observers are all typed and want no
/// prior notification, delivered with the key's own value type.
///
/// Each change record the observers need is built once (at most four: with or without old
/// and new values), so a delivery copies the values once per record, not once per observer;
/// triggers are visited without being retained (the list holds them, and the registrar holds
/// the list while the delivery is counted in flight).
extension ObserverList {
  @inlinable
  func deliverSetting<Value>(_ object: AnyObject, old: Value?, new: Value) {
    let bare = KeyValueChange<Value>(kind: .setting)
    let newOnly = recordKinds & 0b0010 != 0 ? KeyValueChange(kind: .setting, newValue: new) : bare
    let oldOnly = recordKinds & 0b0100 != 0 ? KeyValueChange(kind: .setting, oldValue: old) : bare
    let both =
      recordKinds & 0b1000 != 0 ? KeyValueChange(kind: .setting, oldValue: old, newValue: new) : bare
    let scope = DeliveryScope.enter()
    defer { DeliveryScope.leave(scope) }
    withTriggers { triggers in
      for index in triggers.indices {
        Unmanaged.passUnretained(triggers[index])._withUnsafeGuaranteedRef { trigger in
          guard trigger.isActive else { return }
          let typed = unsafeDowncast(trigger, to: ValueTrigger<Value>.self)
          switch (trigger.wantsOld, trigger.wantsNew) {
          case (false, true): typed.deliver(object, newOnly)
          case (false, false): typed.deliver(object, bare)
          case (true, true): typed.deliver(object, both)
          case (true, false): typed.deliver(object, oldOnly)
          }
        }
      }
    }
  }
}
