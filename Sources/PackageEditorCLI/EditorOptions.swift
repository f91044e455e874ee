import CommandLineSupport

/// The command line of `package-editor`: `package-editor [FILE] [--batch | --interactive]
/// [--keep-going] [-e COMMAND | -f SCRIPT]… [--no-color] [--help] [--version]`.
struct EditorOptions: Equatable {
  enum Mode: Equatable {
    /// Interactive when standard input is a terminal, batch otherwise.
    case automatic
    case batch
    case interactive
  }

  /// Where commands come from instead of standard input, in order.
  enum Script: Equatable {
    /// A command given with `-e`.
    case command(String)
    /// A script file given with `-f` or `--script`.
    case file(String)
  }

  var file: String?
  var mode = Mode.automatic
  var keepGoing = false
  /// Commands (`-e`) and script files (`-f`), run in order instead of reading standard input.
  var scripts: [Script] = []
  var noColor = false
  var showHelp = false
  var showVersion = false

  /// The commands given with `-e` (tests build options from commands).
  var commands: [String] {
    get {
      scripts.compactMap {
        if case .command(let command) = $0 { command } else { nil }
      }
    }
    set { scripts = newValue.map { .command($0) } }
  }

  /// A command line that cannot be understood; the editor prints its line and exits with
  /// status 64.
  typealias UsageError = CommandLineSupport.UsageError

  /// The options, each named once.
  enum Option: String, CommandLineOption {
    case batch = "--batch"
    case interactive = "--interactive"
    case keepGoing = "--keep-going"
    case command = "-e"
    case script = "-f"
    case noColor = "--no-color"
    case help = "--help"
    case version = "--version"

    var aliases: [String] {
      switch self {
      case .help: ["-h"]
      case .script: ["--script"]
      default: []
      }
    }
    var value: String? {
      switch self {
      case .command: "a COMMAND"
      case .script: "a SCRIPT file"
      default: nil
      }
    }
  }

  static let usage = """
    usage: package-editor [FILE] [--batch | --interactive] [--keep-going]
                          [-e COMMAND | -f SCRIPT]... [--no-color] [--help] [--version]

      FILE             the package file to edit (created on first save if missing);
                       without it, the editor starts on a built-in sample package
      --batch          no prompt, no banner, no colours (the default when input is not a terminal)
      --interactive    prompt, banner, colours (the default when input is a terminal)
      --keep-going     in batch mode, go on after a failed command (the exit status is still 1)
      -e COMMAND       run COMMAND instead of reading standard input (repeatable)
      -f, --script SCRIPT
                       run the commands of the file SCRIPT instead of reading standard input
                       (repeatable, in order with -e); errors name the file and line
      --no-color       no colours (so does the NO_COLOR environment variable); colours are
                       used only when standard output is a terminal and TERM is not dumb
      --help           print this help
      --version        print the version

    A long option's value may follow it (--script FILE) or an equals sign (--script=FILE); a
    FILE that starts with - follows --.
    """

  static func parse(_ arguments: [String]) throws(UsageError) -> EditorOptions {
    var options = EditorOptions()
    for element in try Option.parse(arguments) {
      switch element {
      case .argument(let argument):
        guard options.file == nil else {
          throw UsageError(
            description: "only one FILE may be given (got \"\(options.file!)\" and \"\(argument)\")"
          )
        }
        options.file = argument
      case .option(.batch, let name, _), .option(.interactive, let name, _):
        let mode: Mode = name == Option.batch.rawValue ? .batch : .interactive
        guard options.mode == .automatic || options.mode == mode else {
          throw UsageError(description: "--batch and --interactive cannot be used together")
        }
        options.mode = mode
      case .option(.keepGoing, _, _): options.keepGoing = true
      case .option(.noColor, _, _): options.noColor = true
      case .option(.help, _, _): options.showHelp = true
      case .option(.version, _, _): options.showVersion = true
      case .option(.command, _, let command): options.scripts.append(.command(command ?? ""))
      case .option(.script, _, let file): options.scripts.append(.file(file ?? ""))
      }
    }
    return options
  }
}
