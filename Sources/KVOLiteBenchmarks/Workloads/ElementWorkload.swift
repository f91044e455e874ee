import Foundation
import KVOLite

/// Workload L: an insert and a remove in the middle of a to-many relationship while a key of
/// every element is observed (`items.weight`, and `items.@sum.weight`), at 10³, 10⁴ and 10⁵
/// elements. What one mutation costs must not grow with the elements it does not change
/// (O(changed elements), amortized, `log n` at most): the row prints the time per insert and
/// remove at each size and the growth from the smallest to the largest.
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
      var perPair: [(size: Int, micros: Double)] = []
      for size in sizes {
        guard let micros = microsecondsPerPair(path: path, size: size) else { break }
        perPair.append((size, micros))
        if micros > 1_000_000 { break }  // Over a second a pair: larger sizes would take hours.
      }
      let shown = perPair.map { "\($0.size): \(Report.format1($0.micros)) µs" }
        .joined(separator: " / ")
      let growth = (perPair.last?.micros ?? 0) / max(perPair.first?.micros ?? 1, 1e-9)
      let complete = perPair.count == sizes.count
      let met = complete && growth <= 3
      lines.append(
        "| \(name) (\(path)) | KVOLite | \(shown)\(complete ? "" : " (stopped: too slow)") | — | "
          + "growth \(Report.format1(growth))× | \(met ? "" : "MISSED: ")O(changed elements) |")
    }
    return lines.joined(separator: "\n")
  }

  /// The median time of an insert and a remove at the middle of `size` elements, with `path`
  /// observed; `nil` if the observation could not be registered.
  private static func microsecondsPerPair(path: String, size: Int) -> Double? {
    let shelf = KVOLiteShelf()
    shelf.items = (0..<size).map { _ in KVOLiteItem() }
    var heard = 0
    let token: ObservationToken
    do {
      token = try shelf.observe(path, options: [.new]) { _ in heard += 1 }
    } catch {
      return nil
    }
    let items = shelf.mutableArrayValue(for: \.items)
    var samples: [Double] = []
    let deadline = DispatchTime.now().uptimeNanoseconds + 200_000_000
    while samples.count < 5
      || (samples.count < 200 && DispatchTime.now().uptimeNanoseconds < deadline)
    {
      let start = DispatchTime.now().uptimeNanoseconds
      try! items.insert(KVOLiteItem(), at: size / 2)
      _ = try! items.remove(at: size / 2)
      samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000)
      if samples.last! > 1_000_000 { break }
    }
    token.invalidate()
    Effect.consume(heard)
    return samples.sorted()[samples.count / 2]
  }
}
