// kvolite-benchmarks: every workload for every contender, interleaved, in one process,
// as ratios to the fair floor of the same run. Build in release mode:
//   swift run -c release kvolite-benchmarks [--quick] [--filter TEXT] [--contender NAME]
//     [--operations N]
// See BenchmarkOptions.usage (--help) for the options and the exit status.
import CommandLineSupport
import Foundation

/// Prints `error` on standard error in one line, as package-editor does (the mistake, and
/// where the usage is), and exits with the usage status.
func usageError(_ error: UsageError) -> Never {
  FileHandle.standardError.write(Data("error: \(error.line(for: "kvolite-benchmarks"))\n".utf8))
  exit(CommandLineTool.usageStatus)
}

let options: BenchmarkOptions
do {
  options = try BenchmarkOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
  usageError(error)
}
if options.showHelp || options.showVersion {
  print(
    options.showHelp
      ? BenchmarkOptions.usage : CommandLineTool.versionLine(of: "kvolite-benchmarks"))
  exit(0)
}
let quick = options.quick
let filter = options.filter
let harness = Harness(
  rounds: quick ? 5 : 21, batchNanoseconds: quick ? 1_000_000 : 4_000_000,
  onlyContender: options.contender)

let workloads: [Workload] = [
  SetWorkloads.observed(1), SetWorkloads.observed(10), SetWorkloads.observed(100),
  SetWorkloads.observed(100, perCallback: true),
  SetWorkloads.unobserved(siblingObservers: false), SetWorkloads.unobserved(siblingObservers: true),
  RegistrationWorkloads.registerAndCancel, RegistrationWorkloads.chain,
  MirrorWorkloads.mirror(viewModelsOwn: false), MirrorWorkloads.mirror(viewModelsOwn: true),
  ToManyWorkloads.append(countOnly: false), ToManyWorkloads.append(countOnly: true),
  ToManyWorkloads.derived, InPlaceWorkload.append,
]

// The workloads printed after the table (below), by the names --filter matches.
let memoryShapes = [MemoryWorkload.furtherObservations, MemoryWorkload.firstObservations]
let otherWorkloadNames =
  memoryShapes.map(\.name) + [ElementWorkload.name] + [
    "C2 100,000 observers", "S  100,000 subject sinks", "R  package-editor",
  ]
do {
  try options.check(
    workloadNames: workloads.map(\.name) + otherWorkloadNames,
    contenderNames: workloads.flatMap { $0.contenders.map(\.name) })
} catch {
  usageError(error)
}

if let operations = options.operations {
  if let filter, !workloads.contains(where: { $0.name.contains(filter) }) {
    usageError(
      UsageError(
        description:
          "--operations runs the timed workloads; no timed workload's name contains \"\(filter)\""
      ))
  }
  // Counting instructions: each selected case built, run `operations` times, nothing timed.
  for workload in workloads where filter.map({ workload.name.contains($0) }) ?? true {
    for contender in workload.contenders
    where options.contender.map({ contender.name == $0 }) ?? true {
      contender.make().run(operations)
    }
  }
  print("side effect total: \(Effect.total)")
  exit(0)
}

Report.printHeader(rounds: harness.rounds)
var failed = false
for workload in workloads where filter.map({ workload.name.contains($0) }) ?? true {
  let result = harness.run(workload)
  if case .failure = result { failed = true }
  Report.print(workload, result)
}
for shape in memoryShapes where filter.map({ shape.name.contains($0) }) ?? true {
  Report.printMemory(shape.name, MemoryWorkload.run(shape))
}
if filter.map({ ElementWorkload.name.contains($0) }) ?? true {
  print(ElementWorkload.run(quick: quick))
}
if filter.map({ "C2 100,000 observers".contains($0) }) ?? true {
  let (register, invalidate) = ScaleWorkload.run(rounds: quick ? 3 : 5)
  print(
    "| C2 100,000 observers of one key: register all / invalidate all | KVOLite | "
      + "\(Report.format1(register)) ms / \(Report.format1(invalidate)) ms | — | — | "
      + Report.marked(
        seconds: [register / 1000, invalidate / 1000], under: 0.5, "well under 1 s each") + " |"
  )
}
if filter.map({ "S  100,000 subject sinks".contains($0) }) ?? true {
  let (subscribe, cancel) = SubjectScaleWorkload.run(rounds: quick ? 3 : 5)
  print(
    "| S  100,000 subject sinks: subscribe all / cancel all in random order | KVOLite | "
      + "\(Report.format1(subscribe)) ms / \(Report.format1(cancel)) ms | — | — | "
      + Report.marked(
        seconds: [subscribe / 1000, cancel / 1000], under: 0.5, "well under 1 s each") + " |"
  )
}
if filter.map({ "R  package-editor".contains($0) }) ?? true {
  switch EditorWorkload.run() {
  case .success(let seconds):
    print(
      "| R  package-editor --batch, 100,000 lines | KVOLite | \(Report.format2(seconds)) s | — | — | "
        + Report.marked(seconds: [seconds], under: 0.5, "< 0.5 s") + " |"
    )
  case .failure(let failure):
    print(
      "| R  package-editor --batch, 100,000 lines | KVOLite | — | — | — | not measured: \(failure.reason) |"
    )
  }
}
print("")
print("side effect total: \(Effect.total)")
if failed {
  // exit, not fatalError: the report above is flushed, with the failed check's line.
  FileHandle.standardError.write(
    Data("kvolite-benchmarks: a sanity check failed: the timings above are not comparable\n".utf8))
  exit(1)
}
