import CommandLineSupport

/// The command line of `kvolite-benchmarks`: `kvolite-benchmarks [--quick] [--filter TEXT]
/// [--contender NAME] [--operations N] [--help] [--version]`.
struct BenchmarkOptions: Equatable {
  /// Fewer rounds and shorter batches: a quick look, not figures to quote.
  var quick = false
  /// Keeps the workloads whose name contains this text.
  var filter: String?
  /// Runs this contender only (for profiling; no ratios then).
  var contender: String?
  /// Runs each selected contender's operation this many times, untimed, and prints only the
  /// side effect: for counting instructions (callgrind), where the difference between two
  /// counts cancels the set-up.
  var operations: Int?
  var showHelp = false
  var showVersion = false

  /// A command line that cannot be understood; the program prints its line and exits with
  /// ``CommandLineTool/usageStatus``.
  typealias UsageError = CommandLineSupport.UsageError

  /// The options, each named once.
  enum Option: String, CommandLineOption {
    case quick = "--quick"
    case filter = "--filter"
    case contender = "--contender"
    case operations = "--operations"
    case help = "--help"
    case version = "--version"

    var aliases: [String] { self == .help ? ["-h"] : [] }
    var value: String? {
      switch self {
      case .filter: "a TEXT"
      case .contender: "a NAME"
      case .operations: "a count N"
      case .quick, .help, .version: nil
      }
    }
  }

  static let usage = """
    usage: kvolite-benchmarks [--quick] [--filter TEXT] [--contender NAME] [--operations N]
                              [--help] [--version]

    Times every workload for every contender, interleaved in one process, and prints medians,
    the spread and the ratio to the fair floor of the same run. Build it in release mode:
    swift run -c release kvolite-benchmarks

      --quick            fewer rounds and shorter batches (a quick look, not figures to quote)
      --filter TEXT      only the workloads whose name contains TEXT (for example "A'" or "D2")
      --contender NAME   only the contender NAME, for profiling (no ratios then); NAME is one
                         of the contenders the report lists, such as KVOLite or floor
      --operations N     time nothing: run the operation of each timed workload (A to DK)
                         and contender selected N times, for counting instructions
                         (valgrind --tool=callgrind; compare two counts, so that the
                         set-up cancels)
      -h, --help         print this help and do nothing else
      --version          print the version and do nothing else

    An option's value may follow it (--filter TEXT) or an equals sign (--filter=TEXT).
    exit status: 0 when every workload ran, 1 when a contender failed its sanity check (it did
    not deliver exactly the callbacks it should, so the timings are not comparable), 64 for bad
    usage
    """

  /// The options in `arguments` (the command line without the program's name).
  static func parse(_ arguments: [String]) throws(UsageError) -> BenchmarkOptions {
    var options = BenchmarkOptions()
    for element in try Option.parse(arguments) {
      switch element {
      case .argument(let argument):
        throw UsageError(description: "unexpected argument \"\(argument)\"")
      case .option(.quick, _, _): options.quick = true
      case .option(.help, _, _): options.showHelp = true
      case .option(.version, _, _): options.showVersion = true
      case .option(.filter, _, let value): options.filter = value
      case .option(.contender, _, let value): options.contender = value
      case .option(.operations, _, let value):
        guard let value, let count = Int(value), count >= 0 else {
          throw UsageError(
            description: "--operations needs a count of 0 or more, not \"\(value ?? "")\"")
        }
        options.operations = count
      }
    }
    return options
  }

  /// Checks the options against what there is to run: a filter that keeps no workload or a
  /// contender no workload has is a usage error, not a run that times nothing.
  func check(workloadNames: [String], contenderNames: [String]) throws(UsageError) {
    if let filter, !workloadNames.contains(where: { $0.contains(filter) }) {
      throw UsageError(description: "no workload's name contains \"\(filter)\"")
    }
    if let contender, !contenderNames.contains(contender) {
      let known = Array(Set(contenderNames)).sorted().map { "\"\($0)\"" }
      throw UsageError(
        description: "no contender is named \"\(contender)\" (the contenders are "
          + known.joined(separator: ", ") + ")")
    }
  }
}
