import CommandLineSupport

/// The command line of `kvolite-stress`: `kvolite-stress [--iterations N] [--filter TEXT]
/// [--list] [--help] [--version]`.
struct StressOptions: Equatable {
  /// How many times each scenario runs its race.
  var iterations = 200_000
  /// Keeps the scenarios whose name contains this text.
  var filter: String?
  var list = false
  var showHelp = false
  var showVersion = false

  /// A command line that cannot be understood; the program prints its line and exits with
  /// ``CommandLineTool/usageStatus``.
  typealias UsageError = CommandLineSupport.UsageError

  /// The options, each named once.
  enum Option: String, CommandLineOption {
    case iterations = "--iterations"
    case filter = "--filter"
    case list = "--list"
    case help = "--help"
    case version = "--version"

    var aliases: [String] { self == .help ? ["-h"] : [] }
    var value: String? {
      switch self {
      case .iterations: "a positive number"
      case .filter: "a TEXT"
      case .list, .help, .version: nil
      }
    }
  }

  static let usage = """
    usage: kvolite-stress [--iterations N] [--filter TEXT] [--list] [--help] [--version]

    Runs the concurrency stress scenarios: each races threads over models, subjects and
    operators, counts every event, and fails on a count that is off or on anything left alive.
    Run it in the build users run: swift run -c release kvolite-stress

      --iterations N   how many times each scenario races (default 200000, what CI runs)
      --filter TEXT    only the scenarios whose name contains TEXT
      --list           print the names of the scenarios (those --filter keeps) and run none
      -h, --help       print this help and do nothing else
      --version        print the version and do nothing else

    An option's value may follow it (--filter TEXT) or an equals sign (--filter=TEXT).
    exit status: 0 when every scenario passed, 1 when one failed, 64 for bad usage
    """

  /// The options in `arguments` (the command line without the program's name).
  static func parse(_ arguments: [String]) throws(UsageError) -> StressOptions {
    var options = StressOptions()
    for element in try Option.parse(arguments) {
      switch element {
      case .argument(let argument):
        throw UsageError(description: "unexpected argument \"\(argument)\"")
      case .option(.list, _, _): options.list = true
      case .option(.help, _, _): options.showHelp = true
      case .option(.version, _, _): options.showVersion = true
      case .option(.filter, _, let text): options.filter = text
      case .option(.iterations, _, let text):
        guard let text, let count = Int(text), count > 0 else {
          throw UsageError(description: "--iterations takes a positive number")
        }
        options.iterations = count
      }
    }
    return options
  }

  /// The scenarios of `all` that the filter keeps; a filter that keeps none is a usage error,
  /// not a run that proves nothing.
  func scenarios(of all: [StressScenario]) throws(UsageError) -> [StressScenario] {
    guard let filter else { return all }
    let kept = all.filter { $0.name.contains(filter) }
    if kept.isEmpty {
      throw UsageError(description: "no scenario's name contains \"\(filter)\"")
    }
    return kept
  }
}
