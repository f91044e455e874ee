extension Publishers {
  /// When `collect` publishes a group: every interval, or every interval or as soon as a count
  /// is reached.
  public enum TimeGroupingStrategy<Context: Scheduler> {
    /// A group every interval, timed on the scheduler.
    case byTime(Context, Context.SchedulerTimeType.Stride)
    /// A group every interval, or as soon as it holds `count` values (the clock then starts
    /// again).
    case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
  }
}
