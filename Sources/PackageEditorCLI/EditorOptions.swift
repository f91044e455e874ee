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

  /// The editor's version, printed by `--version`.
  static let version = "0.1.0-dev"

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
    """

  /// A command line that cannot be understood; the editor prints ``line`` and exits with
  /// status 64.
  struct UsageError: Error, Equatable, CustomStringConvertible {
    /// The mistake: `unknown option "--frob"`.
    let description: String
    /// Whether ``description`` already says where help is.
    var namesHelp = false

    /// What the editor prints after `error: `: the mistake, and where the usage is.
    var line: String {
      namesHelp ? description : description + "; package-editor --help shows the usage"
    }
  }

  static func parse(_ arguments: [String]) throws(UsageError) -> EditorOptions {
    var options = EditorOptions()
    var remaining = arguments[...]
    var onlyFiles = false
    while let argument = remaining.popFirst() {
      if onlyFiles || !argument.hasPrefix("-") || argument == "-" {
        guard options.file == nil else {
          throw UsageError(
            description: "only one FILE may be given (got \"\(options.file!)\" and \"\(argument)\")"
          )
        }
        options.file = argument
        continue
      }
      switch argument {
      case "--": onlyFiles = true
      case "--batch", "--interactive":
        let mode: Mode = argument == "--batch" ? .batch : .interactive
        guard options.mode == .automatic || options.mode == mode else {
          throw UsageError(description: "--batch and --interactive cannot be used together")
        }
        options.mode = mode
      case "--keep-going": options.keepGoing = true
      case "--no-color": options.noColor = true
      case "--help", "-h": options.showHelp = true
      case "--version": options.showVersion = true
      case "-e":
        guard let command = remaining.popFirst() else {
          throw UsageError(description: "-e needs a COMMAND")
        }
        options.scripts.append(.command(command))
      case "-f", "--script":
        guard let file = remaining.popFirst() else {
          throw UsageError(description: "\(argument) needs a SCRIPT file")
        }
        options.scripts.append(.file(file))
      default:
        throw UsageError(description: "unknown option \"\(argument)\"")
      }
    }
    return options
  }
}
