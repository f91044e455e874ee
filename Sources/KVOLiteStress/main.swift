// kvolite-stress: KVOLite under concurrency, in the build users run. Every scenario races
// threads over models, subjects and operators, counts every event, and fails on a count that is
// off (lost, duplicated, out of order, late) or anything left alive. CI runs it in release mode,
// where the optimizer moves loads and retains that debug and sanitizer builds keep in place:
//   swift run -c release kvolite-stress [--iterations N] [--filter TEXT] [--list]
// See StressOptions.usage (--help) for the options and the exit status.
import CommandLineSupport
import Foundation

/// Prints `error` on standard error in one line, as package-editor does (the mistake, and
/// where the usage is), and exits with the usage status.
func usageError(_ error: UsageError) -> Never {
  FileHandle.standardError.write(Data("error: \(error.line(for: "kvolite-stress"))\n".utf8))
  exit(CommandLineTool.usageStatus)
}

let options: StressOptions
do {
  options = try StressOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  usageError(error)
}
if options.showHelp || options.showVersion {
  print(
    options.showHelp ? StressOptions.usage : CommandLineTool.versionLine(of: "kvolite-stress"))
  exit(0)
}
let scenarios: [StressScenario]
do {
  scenarios = try options.scenarios(of: StressScenarios.all)
} catch {
  usageError(error)
}
if options.list {
  for scenario in scenarios { print(scenario.name) }
  exit(0)
}
let iterations = options.iterations

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
  // Out now, so that the report is all there if a sanitizer ends the process at exit (the leak
  // sanitizer does, without flushing buffered output).
  fflush(nil)
  if !report.passed { failed += 1 }
}
print(
  failed == 0
    ? "all \(scenarios.count) scenarios passed" : "\(failed) of \(scenarios.count) scenarios failed"
)
exit(failed == 0 ? 0 : 1)
