import CommandLineSupport
import Testing

/// The options of a program, as the three executables declare theirs.
private enum SampleOption: String, CommandLineOption {
  case batch = "--batch"
  case interactive = "--interactive"
  case filter = "--filter"
  case script = "-f"
  case help = "--help"

  var aliases: [String] {
    switch self {
    case .help: ["-h"]
    case .script: ["--script"]
    default: []
    }
  }
  var value: String? {
    switch self {
    case .filter: "a TEXT"
    case .script: "a SCRIPT file"
    default: nil
    }
  }
}

/// A bad command line and the one line its program prints after `error: `.
struct BadCommandLine: Sendable, CustomTestStringConvertible {
  let arguments: [String]
  let line: String
  var testDescription: String { arguments.joined(separator: " ") }
}

/// The command-line parsing that package-editor, kvolite-stress and kvolite-benchmarks share:
/// `--name value` and `--name=value`, flags, aliases, `--`, and the errors with their "did you
/// mean".
@Suite("Command lines: the shared option parser")
struct CommandLineOptionTests {
  @Test("an option's value follows it or its equals sign; flags, aliases, arguments and --")
  func valid() throws {
    let parsed = try SampleOption.parse([
      "--filter", "a b", "--filter=c=d", "--filter=", "-f", "x", "--script=y", "--batch", "-h",
      "file", "-", "--", "--batch", "-f",
    ])
    #expect(
      parsed == [
        .option(.filter, name: "--filter", value: "a b"),
        .option(.filter, name: "--filter", value: "c=d"),
        .option(.filter, name: "--filter", value: ""),
        .option(.script, name: "-f", value: "x"),
        .option(.script, name: "--script", value: "y"),
        .option(.batch, name: "--batch", value: nil),
        .option(.help, name: "-h", value: nil),
        .argument("file"), .argument("-"), .argument("--batch"), .argument("-f"),
      ])
    #expect(try SampleOption.parse([]) == [])
  }

  static let bad = [
    BadCommandLine(
      arguments: ["--bach"], line: #"unknown option "--bach"; did you mean "--batch"?"#),
    BadCommandLine(
      arguments: ["--interactiv"],
      line: #"unknown option "--interactiv"; did you mean "--interactive"?"#),
    BadCommandLine(
      arguments: ["--scrpt=a"], line: #"unknown option "--scrpt"; did you mean "--script"?"#),
    BadCommandLine(
      arguments: ["--frob"], line: #"unknown option "--frob"; tool --help shows the usage"#),
    BadCommandLine(arguments: ["-i"], line: #"unknown option "-i"; tool --help shows the usage"#),
    BadCommandLine(
      arguments: ["-f=a"], line: #"unknown option "-f=a"; tool --help shows the usage"#),
    BadCommandLine(
      arguments: ["--batch=yes"],
      line: "--batch takes no value (--batch=yes); tool --help shows the usage"
    ),
    BadCommandLine(
      arguments: ["--filter"], line: "--filter needs a TEXT; tool --help shows the usage"),
    BadCommandLine(
      arguments: ["--batch", "--script"],
      line: "--script needs a SCRIPT file; tool --help shows the usage"),
  ]

  @Test(
    "a bad command line is one line: the mistake, and a likely name or where help is",
    arguments: bad)
  func invalid(_ commandLine: BadCommandLine) {
    do {
      let parsed = try SampleOption.parse(commandLine.arguments)
      Issue.record("parsed as \(parsed)")
    } catch {
      #expect(error.line(for: "tool") == commandLine.line)
    }
  }

  @Test("the version line and the status of bad usage")
  func tool() {
    #expect(CommandLineTool.versionLine(of: "tool") == "tool \(CommandLineTool.version)")
    #expect(CommandLineTool.usageStatus == 64)
  }
}
