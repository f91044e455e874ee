import KVOLiteLocking

/// The fast path of delivery: a setting of a key whose observers are all typed and want no
/// prior notification, delivered with the key's own value type.
///
/// Each change record the observers need is built once per set (at most four: with or without
/// old and new values), before the new value moves into the storage, so that a set copies the
/// values once per record, not once per observer. Triggers are visited without being retained
/// (the list holds them, and the delivery holds the list).
extension ObserverList {
  /// Delivers a setting to every active trigger. The caller builds the records (see
  /// ``Observed/setObserved(_:_:_:_:)``); each observer gets the one its options ask for.
  @inlinable
  func deliverSetting<Value>(
    _ object: AnyObject, bare: KeyValueChange<Value>, newOnly: KeyValueChange<Value>,
    oldOnly: KeyValueChange<Value>, both: KeyValueChange<Value>
  ) {
    let scope = DeliveryScope.enter()
    defer { DeliveryScope.leave(scope) }
    forEachTrigger { trigger in
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
