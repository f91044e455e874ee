#if DEBUG
  extension ThreadScheduler {
    /// What a search found.
    public struct Report: Sendable, CustomStringConvertible {
      /// The interleavings run to their end.
      public var interleavings: Int
      /// Whether the search stopped at its limit before running every interleaving.
      public var truncated: Bool
      /// The first failure: the broken invariant's message and the schedule that broke it (the
      /// callers' names, one per step).
      public var failure: (message: String, schedule: [String])?

      /// The failure, or the count of interleavings.
      public var description: String {
        guard let failure else {
          return "\(interleavings) interleavings\(truncated ? " (truncated)" : "")"
        }
        return "\(failure.message) after \(failure.schedule.joined(separator: ", "))"
      }
    }
  }
#endif
