// kvolite-benchmarks: every workload of SPEC §8 for every contender, interleaved, in one process.
// Build in release mode:
//   swift run -c release kvolite-benchmarks [--quick] [--filter TEXT] [--contender NAME]
// --filter keeps the workloads whose name contains TEXT; --contender runs one contender only
// (for profiling; no ratios then).

let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let filter = arguments.firstIndex(of: "--filter").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
let only = arguments.firstIndex(of: "--contender").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
let harness = Harness(
  rounds: quick ? 5 : 21, batchNanoseconds: quick ? 1_000_000 : 4_000_000, onlyContender: only)

let workloads: [Workload] = [
  SetWorkloads.observed(1), SetWorkloads.observed(10), SetWorkloads.observed(100),
  SetWorkloads.observed(100, perCallback: true),
  SetWorkloads.unobserved(siblingObservers: false), SetWorkloads.unobserved(siblingObservers: true),
  RegistrationWorkloads.registerAndCancel, RegistrationWorkloads.chain,
  ToManyWorkloads.append(countOnly: false), ToManyWorkloads.append(countOnly: true),
  ToManyWorkloads.derived, MirrorWorkload.roundTrip,
]

Report.printHeader(rounds: harness.rounds)
for workload in workloads where filter.map({ workload.name.contains($0) }) ?? true {
  Report.print(harness.run(workload))
}
if filter.map({ "M  heap bytes".contains($0) }) ?? true {
  Report.printMemory(MemoryWorkload.run())
}
if filter.map({ "R  package-editor".contains($0) }) ?? true {
  switch EditorWorkload.run() {
  case .success(let seconds):
    print("| R  package-editor --batch, 100,000 lines | KVOLite | \(Report.format2(seconds)) s | — | < 0.5 s |")
  case .failure(let failure):
    print("| R  package-editor --batch, 100,000 lines | KVOLite | — | — | not measured: \(failure.reason) |")
  }
}
