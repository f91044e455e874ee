/// The command line of `package-editor`:
/// `package-editor [FILE] [--batch | --interactive] [--keep-going] [-e COMMAND]… [--no-color]`.
struct EditorOptions: Equatable {
  enum Mode: Equatable {
    /// Interactive when standard input is a terminal, batch otherwise.
    case automatic
    case batch
    case interactive
  }

  var file: String?
  var mode = Mode.automatic
  var keepGoing = false
  /// Commands given with `-e`, run instead of reading standard input.
  var commands: [String] = []
  var noColor = false
  var showHelp = false

  static let usage = """
    usage: package-editor [FILE] [--batch | --interactive] [--keep-going] [-e COMMAND]... [--no-color]

      FILE           the package file to edit (created on first save if missing);
                     without it, the editor starts on a built-in sample package
      --batch        no prompt, no banner, no colours (the default when input is not a terminal)
      --interactive  prompt, banner, colours (the default when input is a terminal)
      --keep-going   in batch mode, go on after a failed command (the exit status is still 1)
      -e COMMAND     run COMMAND instead of reading standard input (repeatable)
      --no-color     no colours (so does the NO_COLOR environment variable)
      --help         print this help
    """

  /// A command line that cannot be understood; the editor exits with status 64.
  struct UsageError: Error, Equatable, CustomStringConvertible {
    let description: String
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
      case "-e":
        guard let command = remaining.popFirst() else {
          throw UsageError(description: "-e needs a COMMAND")
        }
        options.commands.append(command)
      default:
        throw UsageError(description: "unknown option \"\(argument)\"")
      }
    }
    return options
  }
}
