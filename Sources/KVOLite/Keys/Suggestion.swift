/// "Did you mean …?": the candidate closest to a mistyped name.
package enum Suggestion {
  /// The candidate `name` most likely means, ignoring case: the one with the smallest edit
  /// distance if that is a likely typo (at most two edits, or a third of the name's length);
  /// else the shortest candidate that starts with `name` (`recip` → `recipient`); else the
  /// shortest that starts with the same letter and holds all of `name`'s letters in order
  /// (`frst` → `firstName`). `nil` when none fits.
  ///
  /// The cost is bounded by the candidates, not by `name`: the distance is computed only for a
  /// candidate whose length is within the edits allowed of `name`'s (no other can be close
  /// enough), and a name longer than every candidate is only compared by prefix.
  package static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
    let lowered = name.lowercased()
    guard !lowered.isEmpty else { return nil }
    let length = lowered.unicodeScalars.count
    let allowed = max(2, name.count / 3)
    var best: (candidate: String, distance: Int)?
    var prefixed: String?
    var scattered: String?
    for candidate in candidates {
      let other = candidate.lowercased()
      let otherLength = other.unicodeScalars.count
      if abs(otherLength - length) <= allowed {
        let distance = editDistance(lowered, other)
        if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
      }
      // A name longer than the candidate can be neither its prefix nor its subsequence.
      guard length <= otherLength else { continue }
      if other.hasPrefix(lowered), prefixed.map({ candidate.count < $0.count }) ?? true {
        prefixed = candidate
      }
      if other.first == lowered.first, isSubsequence(lowered, of: other),
        scattered.map({ candidate.count < $0.count }) ?? true
      {
        scattered = candidate
      }
    }
    if let best, best.distance <= allowed { return best.candidate }
    return prefixed ?? scattered
  }

  /// Whether the scalars of `short` appear in `long` in the same order.
  static func isSubsequence(_ short: String, of long: String) -> Bool {
    var remaining = short.unicodeScalars[...]
    for scalar in long.unicodeScalars where scalar == remaining.first {
      remaining = remaining.dropFirst()
      if remaining.isEmpty { return true }
    }
    return remaining.isEmpty
  }

  /// Levenshtein distance over Unicode scalars.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
