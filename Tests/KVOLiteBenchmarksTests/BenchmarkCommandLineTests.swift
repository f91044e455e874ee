import KVOLiteTestSupport
import Testing

@testable import KVOLiteBenchmarks

/// `kvolite-benchmarks`' command line: the options, and the built executable's answers to
/// `--help` and bad usage, none of which times anything (a run takes minutes).
@Suite("kvolite-benchmarks: command line")
struct BenchmarkCommandLineTests {
  @Test("the defaults, and every option")
  func valid() throws {
    #expect(try BenchmarkOptions.parse([]) == BenchmarkOptions())
    #expect(
      try BenchmarkOptions.parse(["--quick", "--filter", "A'", "--contender", "floor (Int)", "-h"])
        == BenchmarkOptions(quick: true, filter: "A'", contender: "floor (Int)", showHelp: true))
    #expect(
      try BenchmarkOptions.parse(["--operations", "22000", "--filter", "D2"])
        == BenchmarkOptions(filter: "D2", operations: 22000))
    #expect(try BenchmarkOptions.parse(["--operations", "0"]) == BenchmarkOptions(operations: 0))
    #expect(
      try BenchmarkOptions.parse(["--filter=A'", "--contender=floor (Int)", "--operations=3"])
        == BenchmarkOptions(filter: "A'", contender: "floor (Int)", operations: 3))
    #expect(try BenchmarkOptions.parse(["--version"]) == BenchmarkOptions(showVersion: true))
  }

  @Test(
    "bad usage is an error",
    arguments: [
      (["--frob"], #"unknown option "--frob""#),
      (["-q"], #"unknown option "-q""#),
      (["A"], #"unexpected argument "A""#),
      (["--filter"], "--filter needs a TEXT"),
      (["--quick", "--contender"], "--contender needs a NAME"),
      (["--operations"], "--operations needs a count N"),
      (["--operations="], #"--operations needs a count of 0 or more, not """#),
      (["--quick=1"], "--quick takes no value (--quick=1)"),
      (["--operations", "-1"], #"--operations needs a count of 0 or more, not "-1""#),
      (["--operations", "1e3"], #"--operations needs a count of 0 or more, not "1e3""#),
      (
        ["--operations", "99999999999999999999"],
        #"--operations needs a count of 0 or more, not "99999999999999999999""#
      ),
    ])
  func invalid(arguments: [String], message: String) {
    #expect(throws: BenchmarkOptions.UsageError(description: message)) {
      _ = try BenchmarkOptions.parse(arguments)
    }
  }

  @Test("a filter that keeps no workload, or an unknown contender, is bad usage")
  func check() throws {
    let workloads = ["A  set", "B  get"]
    let contenders = ["floor", "KVOLite", "floor", "@Published"]
    try BenchmarkOptions(filter: "B ", contender: "KVOLite")
      .check(workloadNames: workloads, contenderNames: contenders)
    try BenchmarkOptions().check(workloadNames: workloads, contenderNames: contenders)
    #expect(throws: BenchmarkOptions.UsageError(description: #"no workload's name contains "C""#)) {
      try BenchmarkOptions(filter: "C").check(workloadNames: workloads, contenderNames: contenders)
    }
    let unknown = BenchmarkOptions.UsageError(
      description:
        #"no contender is named "kvolite" (the contenders are "@Published", "KVOLite", "floor")"#
    )
    #expect(throws: unknown) {
      try BenchmarkOptions(contender: "kvolite")
        .check(workloadNames: workloads, contenderNames: contenders)
    }
  }

  @Test("--help prints the usage and times nothing, whatever else is asked")
  func help() throws {
    for arguments in [["--help"], ["-h"], ["--filter", "A", "--help"]] {
      let result = try ExecutableProcess.run("kvolite-benchmarks", arguments)
      #expect(
        result
          == ExecutableProcess.Result(stdout: BenchmarkOptions.usage + "\n", stderr: "", status: 0))
    }
  }

  @Test("--operations runs the chosen operations untimed and prints only the side effect")
  func operations() throws {
    // D2's floor consumes nothing, in its set-up or its operations.
    let mirror = try ExecutableProcess.run(
      "kvolite-benchmarks", ["--operations", "10", "--filter", "D2", "--contender", "floor"])
    #expect(
      mirror == ExecutableProcess.Result(stdout: "side effect total: 0\n", stderr: "", status: 0))
    // A's floor with one observer consumes each value it sets once: N sets, N pooled values.
    for count in [0, 7, 30] {
      let sets = try ExecutableProcess.run(
        "kvolite-benchmarks",
        ["--operations", "\(count)", "--filter", "A  set, K = 1 ", "--contender", "floor"])
      #expect(
        sets
          == ExecutableProcess.Result(
            stdout: "side effect total: \(count * Pool.length)\n", stderr: "", status: 0))
    }
  }

  @Test("a mistyped option is an error that names the option meant")
  func mistyped() {
    #expect(
      throws: BenchmarkOptions.UsageError(
        description: #"unknown option "--filtr"; did you mean "--filter"?"#, namesTheFix: true)
    ) {
      _ = try BenchmarkOptions.parse(["--filtr", "A"])
    }
    #expect(
      throws: BenchmarkOptions.UsageError(
        description: #"unknown option "--contendr"; did you mean "--contender"?"#,
        namesTheFix: true)
    ) {
      _ = try BenchmarkOptions.parse(["--contendr=floor"])
    }
  }

  @Test("bad usage prints one line, the mistake and the fix or where help is, and exits with 64")
  func usageError() throws {
    let help = "; kvolite-benchmarks --help shows the usage"
    let cases = [
      (["--frob"], #"unknown option "--frob""# + help),
      (["--quik"], #"unknown option "--quik"; did you mean "--quick"?"#),
      (["--quick", "--filter"], "--filter needs a TEXT" + help),
      (
        ["--filter", "no such workload"], #"no workload's name contains "no such workload""# + help
      ),
      (
        ["--operations", "5", "--filter", "M1"],
        #"--operations runs the timed workloads; no timed workload's name contains "M1""# + help
      ),
    ]
    for (arguments, line) in cases {
      let result = try ExecutableProcess.run("kvolite-benchmarks", arguments)
      #expect(
        result == ExecutableProcess.Result(stdout: "", stderr: "error: \(line)\n", status: 64))
    }
    // The list of contenders is the benchmarks' own: only its frame is compared here.
    let contender = try ExecutableProcess.run("kvolite-benchmarks", ["--contender", "nobody"])
    #expect(contender.status == 64)
    #expect(contender.stdout == "")
    #expect(
      contender.stderr.hasPrefix(#"error: no contender is named "nobody" (the contenders are "#))
    #expect(contender.stderr.hasSuffix(")" + help + "\n"))
    #expect(contender.stderr.contains(#""KVOLite""#))
    #expect(contender.stderr.split(separator: "\n").count == 1)
  }

  @Test("--version prints the version and times nothing")
  func version() throws {
    let result = try ExecutableProcess.run("kvolite-benchmarks", ["--quick", "--version"])
    #expect(
      result
        == ExecutableProcess.Result(stdout: "kvolite-benchmarks 0.1.0\n", stderr: "", status: 0)
    )
  }
}
