/// Prints results as a Markdown table: one row per workload and contender.
enum Report {
  static func printHeader(rounds: Int) {
    Swift.print("kvolite-benchmarks: median of \(rounds) interleaved rounds; ratios are to the baseline of this run")
    Swift.print("")
    Swift.print("| workload | contender | median | × baseline | KVOLite target |")
    Swift.print("|---|---|---:|---:|---|")
  }

  static func print(_ result: Result) {
    let baseline = result.medians.first { $0.name == "baseline" }?.nanoseconds
    for (name, value) in result.medians {
      let ratio = zip(value, baseline).map { String(format2($0 / $1)) + "×" } ?? "—"
      let shown = value.map { format2($0) + " ns" } ?? "—"
      let target = name == "KVOLite" ? result.workload.target : ""
      Swift.print("| \(result.workload.name) | \(name) | \(shown) | \(ratio) | \(target) |")
    }
  }

  static func printMemory(_ rows: [MemoryWorkload.Row]) {
    let baseline = rows.first { $0.name == "baseline" }?.bytesPerObservation
    for row in rows {
      let ratio = zip(row.bytesPerObservation, baseline).map { format2($0 / $1) + "×" } ?? "—"
      let shown = row.bytesPerObservation.map { format2($0) + " B" } ?? "—"
      let target = row.name == "KVOLite" ? "≤ 1.5×" : ""
      Swift.print("| M  heap bytes per observation (100k) | \(row.name) | \(shown) | \(ratio) | \(target) |")
    }
  }

  /// Two decimals, without Foundation.
  static func format2(_ value: Double) -> String {
    let scaled = (value * 100).rounded()
    let whole = Int(scaled / 100)
    let fraction = Int(abs(scaled).truncatingRemainder(dividingBy: 100))
    return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}

private func zip(_ a: Double?, _ b: Double?) -> (Double, Double)? {
  guard let a, let b, b > 0 else { return nil }
  return (a, b)
}
