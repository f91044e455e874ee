/// Prints results as a Markdown table: one row per workload and contender, with the median, the
/// spread (interquartile range over the median) and the ratio to the floor of the same run.
enum Report {
  static func printHeader(rounds: Int) {
    Swift.print(
      "kvolite-benchmarks: median of \(rounds) interleaved rounds; × floor is the ratio to the fair floor of this run"
    )
    Swift.print("")
    Swift.print("| workload | contender | median | spread | × floor | KVOLite target |")
    Swift.print("|---|---|---:|---:|---:|---|")
  }

  static func print(_ workload: Workload, _ result: Swift.Result<[Samples], SanityFailure>) {
    switch result {
    case .failure(let failure):
      for message in failure.messages {
        Swift.print("| \(workload.name) | — | — | — | — | SANITY CHECK FAILED: \(message) |")
      }
    case .success(let samples):
      let floor = samples.first { $0.name == workload.floorName }?.median
      let values = samples.map { (name: $0.name, value: $0.median) }
      for sample in samples {
        let ratio = floor.flatMap { $0 > 0 ? format2(sample.median / $0) + "×" : nil } ?? "—"
        let target =
          sample.name == "KVOLite"
          ? marked(
            workload.target, ratio: floor.map { sample.median / $0 }, value: sample.median,
            among: values) : ""
        Swift.print(
          "| \(workload.name) | \(sample.name) | \(format2(sample.median)) ns | ±\(format1(sample.spreadPercent / 2))% | \(ratio) | \(target) |"
        )
      }
    }
  }

  /// The memory target: 1.5 times the floor's closure, below every peer.
  static let memoryTarget = Target(1.5, ahead: .all, saying: "below")

  static func printMemory(_ name: String, _ rows: [MemoryWorkload.Row]) {
    let floor = rows.first { $0.name == "floor" }?.bytesPerObservation
    let values = rows.compactMap { row in
      row.bytesPerObservation.map { (name: row.name, value: $0) }
    }
    for row in rows {
      let ratio = zip(row.bytesPerObservation, floor).map { format2($0 / $1) + "×" } ?? "—"
      let shown = row.bytesPerObservation.map { format2($0) + " B" } ?? "—"
      let target =
        row.name == "KVOLite"
        ? marked(
          memoryTarget, ratio: zip(row.bytesPerObservation, floor).map { $0 / $1 },
          value: row.bytesPerObservation ?? .infinity, among: values) : ""
      Swift.print(
        "| \(name) | \(row.name) | \(shown) | — | \(ratio) | \(target) |"
      )
    }
  }

  /// The target's description, with "MISSED" before it when the row misses it.
  static func marked(
    _ target: Target, ratio: Double?, value: Double, among values: [(name: String, value: Double)]
  ) -> String {
    guard let ratio, target.ratio != nil else { return target.description }
    let met = target.isMet(ratio: ratio, value: value, among: values)
    return (met ? "" : "MISSED: ") + target.description
  }

  /// A time against a bound in seconds, marked when it misses it: "< 0.5 s", "MISSED: < 0.5 s".
  static func marked(seconds: [Double], under bound: Double, _ text: String) -> String {
    (seconds.allSatisfy { $0 < bound } ? "" : "MISSED: ") + text
  }

  /// Two decimals, without Foundation.
  static func format2(_ value: Double) -> String {
    let scaled = (value * 100).rounded()
    let whole = Int(scaled / 100)
    let fraction = Int(abs(scaled).truncatingRemainder(dividingBy: 100))
    return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
  }

  /// One decimal.
  static func format1(_ value: Double) -> String {
    let scaled = (value * 10).rounded()
    return "\(Int(scaled / 10)).\(Int(abs(scaled).truncatingRemainder(dividingBy: 10)))"
  }
}

private func zip(_ a: Double?, _ b: Double?) -> (Double, Double)? {
  guard let a, let b, b > 0 else { return nil }
  return (a, b)
}
