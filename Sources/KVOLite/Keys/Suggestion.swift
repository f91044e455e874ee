/// "Did you mean …?": the candidate closest to a mistyped name.
public enum Suggestion {
  /// The candidate with the smallest edit distance to `name` (ignoring case), if it is close
  /// enough to be a likely typo: at most two edits, or a third of the name's length.
  public static func closest(to name: String, among candidates: some Sequence<String>) -> String? {
    let lowered = name.lowercased()
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(lowered, candidate.lowercased())
      if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
    }
    guard let best, best.distance <= max(2, name.count / 3) else { return nil }
    return best.candidate
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
