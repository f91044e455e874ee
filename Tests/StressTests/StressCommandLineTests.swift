import KVOLiteTestSupport
import Testing

@testable import KVOLiteStress

/// `kvolite-stress`'s command line: the options, and the built executable's answers to `--help`,
/// `--list` and bad usage, none of which runs a scenario.
@Suite("kvolite-stress: command line")
struct StressCommandLineTests {
  @Test("the defaults, and every option")
  func valid() throws {
    #expect(try StressOptions.parse([]) == StressOptions())
    #expect(StressOptions().iterations == 200_000)
    #expect(
      try StressOptions.parse(["--iterations", "\(Int.max)", "--filter", "subject", "--list", "-h"])
        == StressOptions(iterations: Int.max, filter: "subject", list: true, showHelp: true))
    #expect(
      try StressOptions.parse(["--iterations=7", "--filter=a b", "--version"])
        == StressOptions(iterations: 7, filter: "a b", showVersion: true))
  }

  @Test(
    "bad usage is an error",
    arguments: [
      (["--frob"], #"unknown option "--frob""#),
      (["-i"], #"unknown option "-i""#),
      (["run"], #"unexpected argument "run""#),
      (["--filter"], "--filter needs a TEXT"),
      (["--iterations"], "--iterations needs a positive number"),
      (["--iterations="], "--iterations takes a positive number"),
      (["--list=yes"], "--list takes no value (--list=yes)"),
      (["--iterations", "0"], "--iterations takes a positive number"),
      (["--iterations", "-5"], "--iterations takes a positive number"),
      (["--iterations", "1e3"], "--iterations takes a positive number"),
      (["--iterations", "9223372036854775808"], "--iterations takes a positive number"),
    ])
  func invalid(arguments: [String], message: String) {
    #expect(throws: StressOptions.UsageError(description: message)) {
      _ = try StressOptions.parse(arguments)
    }
  }

  @Test("--filter keeps the scenarios whose name contains its text; none kept is an error")
  func filter() throws {
    let all = StressScenarios.all
    let first = try #require(all.first).name
    let kept = try StressOptions(filter: first).scenarios(of: all).map(\.name)
    #expect(kept == all.map(\.name).filter { $0.contains(first) })
    #expect(try StressOptions().scenarios(of: all).map(\.name) == all.map(\.name))
    #expect(throws: StressOptions.UsageError(description: #"no scenario's name contains "zzz""#)) {
      _ = try StressOptions(filter: "zzz").scenarios(of: all)
    }
  }

  @Test("--help prints the usage and runs nothing, whatever else is asked")
  func help() throws {
    for arguments in [["--help"], ["-h"], ["--iterations", "\(Int.max)", "--help"]] {
      let result = try ExecutableProcess.run("kvolite-stress", arguments)
      #expect(
        result
          == ExecutableProcess.Result(stdout: StressOptions.usage + "\n", stderr: "", status: 0)
      )
    }
  }

  @Test(
    "a mistyped option is an error that names the option meant",
    arguments: [
      (["--iteratons", "5"], #"unknown option "--iteratons"; did you mean "--iterations"?"#),
      (["--filtr=a"], #"unknown option "--filtr"; did you mean "--filter"?"#),
      (["--verison"], #"unknown option "--verison"; did you mean "--version"?"#),
    ])
  func mistyped(arguments: [String], message: String) {
    #expect(throws: StressOptions.UsageError(description: message, namesTheFix: true)) {
      _ = try StressOptions.parse(arguments)
    }
  }

  @Test("bad usage prints one line, the mistake and the fix or where help is, and exits with 64")
  func usageError() throws {
    let cases = [
      (["--frob"], #"unknown option "--frob"; kvolite-stress --help shows the usage"#),
      (["--iteratons", "5"], #"unknown option "--iteratons"; did you mean "--iterations"?"#),
      (
        ["--iterations", "many"],
        "--iterations takes a positive number; kvolite-stress --help shows the usage"
      ),
      (
        ["--filter", "zzz"],
        #"no scenario's name contains "zzz"; kvolite-stress --help shows the usage"#
      ),
    ]
    for (arguments, line) in cases {
      let result = try ExecutableProcess.run("kvolite-stress", arguments)
      #expect(
        result == ExecutableProcess.Result(stdout: "", stderr: "error: \(line)\n", status: 64))
    }
  }

  @Test("--version prints the version and runs nothing")
  func version() throws {
    let result = try ExecutableProcess.run("kvolite-stress", ["--version", "--iterations=1"])
    #expect(
      result
        == ExecutableProcess.Result(stdout: "kvolite-stress 0.1.0\n", stderr: "", status: 0))
  }

  @Test("--list prints the names of the scenarios the filter keeps, and runs none")
  func list() throws {
    let names = StressScenarios.all.map(\.name)
    let all = try ExecutableProcess.run("kvolite-stress", ["--list"])
    #expect(all == .init(stdout: names.map { $0 + "\n" }.joined(), stderr: "", status: 0))
    let first = try #require(names.first)
    let some = try ExecutableProcess.run("kvolite-stress", ["--list", "--filter", first])
    let kept = names.filter { $0.contains(first) }
    #expect(some == .init(stdout: kept.map { $0 + "\n" }.joined(), stderr: "", status: 0))
  }
}
