import KVOLiteLocking

extension SerialObservationStateMachine {
  /// Whether a change of a followed relationship may be taken as it was made (its kind, indexes
  /// and elements applied to the members a ``SerialObservation`` holds, in O(changed elements)),
  /// or must be checked against the relationship read again (O(elements)).
  ///
  /// A change can be taken as it was made only if the changes are taken in the order they were
  /// made. The notifications of two changes may overtake each other (they are delivered after
  /// unlocking), so each change is watched through a *window*: from its prior notification
  /// (sent before the change is stored) to its notification (sent after). Windows that never
  /// overlap are ordered as their changes are. So:
  ///
  /// - a prior notification that finds another window open (or a reading in progress) makes the
  ///   windows *contended*: every change until they are all closed, and every reading done, is
  ///   read again on its changing thread (the last one reads the model after all of them);
  /// - a notification whose window has no prior notification on its thread (a change in flight
  ///   when the observation began, see ``ObservingOptions/takesChangesInFlight``) is read again
  ///   too;
  /// - the first change after the start is read again (the start read the model without a
  ///   window).
  ///
  /// A prior notification whose notification never comes (a mutation that failed after its
  /// prior notification) leaves its window open: every change after it is read again, which is
  /// slower, never wrong.
  ///
  /// Part of the observation's machine: plain values, guarded by its lock.
  struct Windows {
    /// The windows open, per thread (a change made inside a notification opens another one).
    private var open: [ThreadIdentity: Int] = [:]
    /// Windows open and readings in progress.
    private var busy = 0
    private var contended = true

    /// Whether the next change is taken as it was made (for tests).
    var isContended: Bool { contended }

    /// The prior notification of a change, on `thread`: opens its window.
    mutating func willChange(on thread: ThreadIdentity) {
      if busy > 0 { contended = true }
      open[thread, default: 0] += 1
      busy += 1
    }

    /// The notification of a change, on `thread`: closes its window. Returns `true` if the
    /// change is taken as it was made (never unless `canTakeAsMade`: a setting, or a change whose
    /// elements are not all observable); `false` if the caller reads the relationship again,
    /// then calls ``didRead()``.
    mutating func didChange(on thread: ThreadIdentity, canTakeAsMade: Bool) -> Bool {
      guard let windows = open[thread] else {
        // No window: a change in flight at the start. Read again, as a reading in progress.
        contended = true
        busy += 1
        return false
      }
      open[thread] = windows == 1 ? nil : windows - 1
      if contended || busy > 1 {
        contended = true
        return false  // The window's count stays in `busy` until its reading is done.
      }
      guard canTakeAsMade else { return false }
      busy -= 1
      return true
    }

    /// A change taken as it was made did not fit what the observation holds: the next change is
    /// read again.
    mutating func lostTrack() {
      contended = true
    }

    /// The relationship was read again after a change: the windows are no longer contended once
    /// none is open and no other reading is in progress.
    mutating func didRead() {
      busy -= 1
      if busy == 0 { contended = false }
    }
  }
}
