import Foundation

/// A change event in progress: what was snapshotted at will-time, to finish at did-time.
@usableFromInline
struct ChangeFrame {
  let kind: KeyValueChangeKind
  let indexes: IndexSet?
  /// The key's value before the change, for direct records.
  let old: Any?
  /// The triggers active at will-time, in registration order, each at most once per
  /// observation, with the old value a path observation read for itself.
  var entries: [(trigger: Trigger, pathOld: Any?)] = []
}

/// A `willChangeValue` waiting for its `didChangeValue` on the same thread.
struct ManualFrame {
  let thread: UInt
  let key: Int
  let frame: ChangeFrame
}

extension ObservationRegistrar {
  // MARK: - Automatic notification

  /// Finishes a set of an observed key. Entered with the lock held; returns with it released.
  /// Inlinable so that the common case (direct observers, no `.prior`) is specialized for the
  /// value's type: no boxing, no generic value witnesses.
  @inlinable
  func setLocked<Root: KeyValueObservable, Value>(
    _ object: Root, key index: Int, newValue: Value, read: () -> Value, write: (Value) -> Void
  ) {
    guard isObserved(index), slots[index].notifiesAutomatically else {
      write(newValue)
      lock.unlock()
      return
    }
    let slot = slots[index]
    if slot.slowCount == 0 {
      // Only typed triggers without `.prior`: old and new are known here, unboxed.
      let old: Value? = slot.oldCount > 0 ? read() : nil
      write(newValue)
      lock.unlock()
      // The snapshot keeps every trigger alive; no need to retain them one by one.
      slot.triggers.withUnsafeBufferPointer { triggers in
        for index in triggers.indices {
          let trigger = Unmanaged.passUnretained(triggers[index])
          trigger._withUnsafeGuaranteedRef { trigger in
            guard trigger.isActive else { return }
            unsafeDowncast(trigger, to: ValueTrigger<Value>.self).deliver(
              object,
              KeyValueChange(
                kind: .setting, oldValue: trigger.wantsOld ? old : nil,
                newValue: trigger.wantsNew ? newValue : nil))
          }
        }
      }
      return
    }
    let old = read()
    lock.unlock()
    let frame = willChange(object, triggers: slot.triggers, kind: .setting, indexes: nil, old: old)
    lock.lock()
    write(newValue)
    lock.unlock()
    didChange(object, frame, new: newValue)
  }

  // MARK: - The general path

  /// Will-time: sends prior notifications and lets path observations read their old values,
  /// in registration order, once per observation.
  @usableFromInline
  func willChange(
    _ object: AnyObject, triggers: [Trigger], kind: KeyValueChangeKind, indexes: IndexSet?,
    old: Any?
  ) -> ChangeFrame {
    var frame = ChangeFrame(kind: kind, indexes: indexes, old: old)
    for trigger in triggers where trigger.isActive {
      if let (observation, _, _) = trigger.path {
        // One notification per observation, however many of its links this change hits.
        if frame.entries.contains(where: { $0.trigger.path?.observation === observation }) {
          continue
        }
        frame.entries.append(
          (trigger, observation.willChange(kind: kind, indexes: indexes, keyOld: old)))
      } else {
        if trigger.wantsPrior {
          trigger.deliverBoxed(
            object, kind: kind, old: old, new: nil, indexes: indexes, isPrior: true)
        }
        frame.entries.append((trigger, nil))
      }
    }
    return frame
  }

  /// Did-time: notifies everything snapshotted at will-time that is still registered.
  @usableFromInline
  func didChange(_ object: AnyObject, _ frame: ChangeFrame, new: Any?) {
    for (trigger, pathOld) in frame.entries where trigger.isActive {
      if let (observation, _, isLeaf) = trigger.path {
        observation.didChange(
          isLeaf: isLeaf, kind: frame.kind, indexes: frame.indexes, old: pathOld, keyNew: new)
      } else {
        trigger.deliverBoxed(
          object, kind: frame.kind, old: frame.old, new: new, indexes: frame.indexes,
          isPrior: false)
      }
    }
  }

  // MARK: - Manual notification

  /// `willChangeValue` for key `index` of `object`, whose entry is `entry`.
  func manualWillChange(_ object: AnyObject, key index: Int, entry: KeyEntry) {
    let triggers = lock.withLock { index < slots.count ? slots[index].triggers : [] }
    let old = triggers.isEmpty ? nil : entry.value(object)
    let frame = willChange(object, triggers: triggers, kind: .setting, indexes: nil, old: old)
    lock.withLock {
      manualFrames.append(ManualFrame(thread: currentThreadID(), key: index, frame: frame))
    }
  }

  /// `didChangeValue` for key `index`: finishes the innermost matching `willChangeValue` made on
  /// this thread. Without one, it does nothing.
  func manualDidChange(_ object: AnyObject, key index: Int, entry: KeyEntry) {
    let thread = currentThreadID()
    let pending: ManualFrame? = lock.withLock {
      guard let position = manualFrames.lastIndex(where: { $0.thread == thread && $0.key == index })
      else { return nil }
      return manualFrames.remove(at: position)
    }
    guard let pending else { return }
    let new = pending.frame.entries.isEmpty ? nil : entry.value(object)
    didChange(object, pending.frame, new: new)
  }
}
