// kvolite-stress: KVOLite under concurrency, in the build users run. Every scenario races
// threads over models, subjects and operators, counts every event, and fails on a count that is
// off (lost, duplicated, out of order, late) or anything left alive. CI runs it in release mode,
// where the optimizer moves loads and retains that debug and sanitizer builds keep in place:
//   swift run -c release kvolite-stress [--iterations N] [--filter TEXT] [--list]
import Foundation

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
  arguments.firstIndex(of: name).flatMap {
    arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil
  }
}

let scenarios = StressScenarios.all.filter { scenario in
  option("--filter").map { scenario.name.contains($0) } ?? true
}
if arguments.contains("--list") {
  for scenario in scenarios { print(scenario.name) }
  exit(0)
}
guard let iterations = Int(option("--iterations") ?? "200000"), iterations > 0 else {
  FileHandle.standardError.write(
    Data("kvolite-stress: --iterations takes a positive number\n".utf8))
  exit(64)
}

var failed = 0
for scenario in scenarios {
  let start = DispatchTime.now()
  let report = scenario.run(iterations: iterations)
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
  let counts = report.counts.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
  print(
    "\(report.passed ? "ok  " : "FAIL") \(scenario.name) (\(String(format: "%.1f", seconds)) s)"
      + (counts.isEmpty ? "" : ": \(counts)"))
  for failure in report.failures { print("     \(failure)") }
  if !report.passed { failed += 1 }
}
print(
  failed == 0
    ? "all \(scenarios.count) scenarios passed" : "\(failed) of \(scenarios.count) scenarios failed"
)
exit(failed == 0 ? 0 : 1)
