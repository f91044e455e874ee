import Foundation
import KVOLite

/// Workload L: an insert and a remove in the middle of a to-many relationship while a key of
/// every element is observed (`items.weight`, and `items.@sum.weight`), at 10³, 10⁴ and 10⁵
/// elements. What one mutation costs must not grow with the elements it does not change
/// (O(changed elements), amortized, `log n` at most): the row prints the time per insert and
/// remove at each size, the same with nothing observed (the model's own array moves what
/// follows the middle, which grows with the elements), and the growth of the difference — the
/// observation's share — from the smallest size to the largest. An operator's value
/// is computed over every element, once per change at most: its row compares the time of a
/// pair with two of key-value coding's evaluations of the path (`value(forKeyPath:)`).
///
/// The relationship is filled before the observation is registered, so that filling it (which
/// a scan per mutation makes quadratic) is not what is timed.
enum ElementWorkload {
  static let name = "L  insert + remove, a key of every element observed"

  /// The paths observed, one run each.
  static let paths = ["items.weight", "items.@sum.weight"]

  static func run(quick: Bool) -> String {
    let sizes = quick ? [1_000, 4_000] : [1_000, 10_000, 100_000]
    var lines: [String] = []
    for path in paths {
      let isOperator = path.contains("@")
      var perPair: [(size: Int, micros: Double, evaluation: Double, unobserved: Double)] = []
      for size in sizes {
        guard let timed = microsecondsPerPair(path: path, size: size, evaluates: isOperator)
        else { break }
        perPair.append((size, timed.pair, timed.evaluation, timed.unobserved))
        if timed.pair > 1_000_000 { break }  // Over a second a pair: larger sizes would take hours.
      }
      let shown = perPair.map { "\($0.size): \(Report.format1($0.micros)) µs" }
        .joined(separator: " / ")
      let complete = perPair.count == sizes.count
      let stopped = complete ? "" : " (stopped: too slow)"
      let (detail, measured, met, target): (String, String, Bool, String)
      if isOperator, let largest = perPair.last {
        // An operator's value is computed over every element: one evaluation per change is its
        // target (issue 43), against key-value coding's own evaluation of the path, timed here.
        let evaluations = largest.micros / max(largest.evaluation, 1e-9) / 2
        detail = "value(forKeyPath:) at \(largest.size): \(Report.format1(largest.evaluation)) µs"
        measured = "\(Report.format2(evaluations)) evaluations a change"
        (met, target) = (complete && evaluations <= 1, "one evaluation per change")
      } else {
        // The observation's own cost: the time a pair takes beyond the model's own.
        let added = perPair.map { max($0.micros - $0.unobserved, 0) }
        let growth = (added.last ?? 0) / max(added.first ?? 1, 1e-9)
        let unobserved = perPair.map { Report.format1($0.unobserved) }.joined(separator: " / ")
        detail = "nothing observed: \(unobserved) µs"
        measured = "the observation's share grows \(Report.format1(growth))×"
        (met, target) = (complete && growth <= 3, "O(changed elements)")
      }
      lines.append(
        "| \(name) (\(path)) | KVOLite | \(shown)\(stopped); \(detail) | — | \(measured) | "
          + "\(met ? "" : "MISSED: ")\(target) |")
    }
    return lines.joined(separator: "\n")
  }

  /// The median time of an insert and a remove at the middle of `size` elements, with `path`
  /// observed; of key-value coding's evaluation of `path` (`value(forKeyPath:)`) if
  /// `evaluates` (a path with an operator), else 0; and of the pair with nothing observed (the
  /// model's own cost, which grows with the elements: an insert in the middle of an array
  /// moves what follows). `nil` if the observation could not be registered.
  private static func microsecondsPerPair(path: String, size: Int, evaluates: Bool) -> (
    pair: Double, evaluation: Double, unobserved: Double
  )? {
    let shelf = KVOLiteShelf()
    shelf.items = (0..<size).map { _ in KVOLiteItem() }
    let items = shelf.mutableArrayValue(for: \.items)
    let unobserved = median {
      try! items.insert(KVOLiteItem(), at: size / 2)
      _ = try! items.remove(at: size / 2)
    }
    var heard = 0
    let token: ObservationToken
    do {
      token = try shelf.observe(path, options: [.new]) { _ in heard += 1 }
    } catch {
      return nil
    }
    let pair = median {
      try! items.insert(KVOLiteItem(), at: size / 2)
      _ = try! items.remove(at: size / 2)
    }
    token.invalidate()
    // Key-value coding evaluates an operator's path (`items.weight` has no value of its own).
    let evaluation =
      evaluates
      ? median { Effect.consume((try! shelf.value(forKeyPath: path)) == nil ? 0 : 1) } : 0
    Effect.consume(heard)
    return (pair, evaluation, unobserved)
  }

  /// The median time of `body` in microseconds: at least 5 runs, then more for up to 0.2 s
  /// (200 at most), and no more after a run over a second.
  private static func median(_ body: () -> Void) -> Double {
    var samples: [Double] = []
    let deadline = DispatchTime.now().uptimeNanoseconds + 200_000_000
    while samples.count < 5
      || (samples.count < 200 && DispatchTime.now().uptimeNanoseconds < deadline)
    {
      let start = DispatchTime.now().uptimeNanoseconds
      body()
      samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000)
      if samples.last! > 1_000_000 { break }
    }
    return samples.sorted()[samples.count / 2]
  }
}
