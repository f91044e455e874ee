/// The command line of `kvolite-stress`: `kvolite-stress [--iterations N] [--filter TEXT]
/// [--list] [--help]`.
struct StressOptions: Equatable {
  /// How many times each scenario runs its race.
  var iterations = 200_000
  /// Keeps the scenarios whose name contains this text.
  var filter: String?
  var list = false
  var showHelp = false

  /// The exit status of a command line that cannot be understood (`EX_USAGE`).
  static let usageStatus: Int32 = 64

  static let usage = """
    usage: kvolite-stress [--iterations N] [--filter TEXT] [--list] [--help]

    Runs the concurrency stress scenarios: each races threads over models, subjects and
    operators, counts every event, and fails on a count that is off or on anything left alive.
    Run it in the build users run: swift run -c release kvolite-stress

      --iterations N   how many times each scenario races (default 200000, what CI runs)
      --filter TEXT    only the scenarios whose name contains TEXT
      --list           print the names of the scenarios (those --filter keeps) and run none
      -h, --help       print this help and do nothing else

    exit status: 0 when every scenario passed, 1 when one failed, 64 for bad usage
    """

  /// A command line that cannot be understood; the program exits with ``usageStatus``.
  struct UsageError: Error, Equatable, CustomStringConvertible {
    let description: String
  }

  /// The options in `arguments` (the command line without the program's name).
  static func parse(_ arguments: [String]) throws(UsageError) -> StressOptions {
    var options = StressOptions()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--list": options.list = true
      case "--help", "-h": options.showHelp = true
      case "--filter":
        guard let text = remaining.popFirst() else {
          throw UsageError(description: "--filter needs a TEXT")
        }
        options.filter = text
      case "--iterations":
        guard let text = remaining.popFirst(), let count = Int(text), count > 0 else {
          throw UsageError(description: "--iterations takes a positive number")
        }
        options.iterations = count
      default:
        throw UsageError(
          description: argument.hasPrefix("-")
            ? "unknown option \"\(argument)\"" : "unexpected argument \"\(argument)\"")
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
