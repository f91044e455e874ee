#if DEBUG
  import KVOLiteLocking

  extension ThreadScheduler {
    /// A point where the calling caller waits until `condition` holds, as a real thread would
    /// wait for another's effect (a publisher for its subscriber's demand, a subscriber for its
    /// subscription): the schedule lets it go on only then, and reports a deadlock, named
    /// `name`, if no caller can make it hold. Outside a schedule (the unscheduled first run
    /// included) it returns at once: a caller must do something sound when `condition` does
    /// not hold.
    ///
    /// `condition` is called while every caller is parked: it reads their state without waiting
    /// for any of them, and reaches no schedule point itself.
    public static func waitUntil(_ name: StaticString, _ condition: @escaping () -> Bool) {
      Scheduling.reach(.wait(name, condition: condition))
    }
  }
#endif
