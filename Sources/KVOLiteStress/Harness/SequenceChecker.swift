import KVOLiteTestSupport

/// Checks a stream of numbered events from several sources: each source numbers its events
/// 0, 1, 2, … and the checker verifies that, per source, they arrive in order, once each, and
/// that none arrives after ``close()``.
///
/// Thread-safe: events may be recorded from any thread.
final class SequenceChecker: Sendable {
  private struct State {
    var next: [Int]
    var total = 0
    var problems: [String] = []
    var isClosed = false

    mutating func problem(_ text: String) {
      // The first few tell the story; thousands would only flood the log.
      if problems.count < 5 { problems.append(text) }
    }
  }

  private let state: Locked<State>
  /// How many events each source sends, when known: then missing events are reported too.
  private let expectedPerSource: Int?

  /// A checker for `sources` sources, each sending `expectedPerSource` events if given.
  init(sources: Int, expectedPerSource: Int? = nil) {
    state = Locked(State(next: Array(repeating: 0, count: sources)))
    self.expectedPerSource = expectedPerSource
  }

  /// Records event `index` of `source`. With `allowingGaps`, events may be skipped (a
  /// subscriber that coalesces), but never repeated or reordered.
  func record(source: Int, index: Int, allowingGaps: Bool = false) {
    state.withLock { state in
      state.total += 1
      if state.isClosed { state.problem("source \(source) event \(index) arrived after the end") }
      guard state.next.indices.contains(source) else {
        return state.problem("event from unknown source \(source)")
      }
      let next = state.next[source]
      if index < next {
        state.problem("source \(source): event \(index) after event \(next - 1) (repeated or late)")
      } else if index > next, !allowingGaps {
        state.problem("source \(source): event \(index) arrived when \(next) was due (lost)")
      }
      state.next[source] = max(next, index + 1)
    }
  }

  /// Marks the end: any event recorded after this is a failure.
  func close() {
    state.withLock { $0.isClosed = true }
  }

  /// The number of events recorded, and the problems found (including, when the count per
  /// source is known, the sources that fell short).
  var summary: (total: Int, problems: [String]) {
    state.withLock { state in
      var problems = state.problems
      if let expectedPerSource {
        for (source, next) in state.next.enumerated() where next != expectedPerSource {
          problems.append("source \(source): \(next) events, expected \(expectedPerSource)")
        }
      }
      return (state.total, problems)
    }
  }
}
