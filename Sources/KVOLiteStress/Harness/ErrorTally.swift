import KVOLiteBridge
import KVOLiteTestSupport

/// Counts the errors that key-value coding calls throw in a race, and keeps the first few that
/// the race does not explain.
///
/// A race explains one error only: an index that the to-many relationship no longer has when
/// the call reaches it (another thread removed elements), reported with a count that indeed does
/// not contain the index. Anything else (a key that suddenly cannot be found, a type mismatch,
/// an index reported with a count that contains it) is a failure.
///
/// Thread-safe.
final class ErrorTally: Sendable {
  private let state = Locked<(expected: Int, unexpected: Int, first: [String])>((0, 0, []))

  /// Runs `body`, tallying what it throws.
  func attempt(_ body: () throws(KeyValueError) -> Void) {
    do {
      try body()
    } catch {
      if case .indexOutOfRange(let index, let count, _) = error, index >= count {
        return state.withLock { $0.expected += 1 }
      }
      state.withLock { state in
        state.unexpected += 1
        if state.first.count < 5 { state.first.append(error.description) }
      }
    }
  }

  /// Adds the tally to `report`: the expected errors as a count, the others as failures.
  func merge(into report: inout StressReport) {
    let (expected, unexpected, first) = state.withLock { $0 }
    report.count("indexes out of range (raced)", expected)
    report.expect("unexpected errors", unexpected, 0)
    report.failures += first.map { "unexpected error: \($0)" }
  }
}
