import KVOLiteTestSupport
import Testing

@testable import PackageEditorCLI

@Suite("Command line")
struct EditorOptionsTests {
  @Test("flags, a file and repeated -e commands")
  func valid() throws {
    let options = try EditorOptions.parse([
      "f.json", "--batch", "--keep-going", "-e", "show", "-e", "quit", "--no-color",
    ])
    #expect(
      options
        == EditorOptions(
          file: "f.json", mode: .batch, keepGoing: true,
          scripts: [.command("show"), .command("quit")], noColor: true))
    #expect(try EditorOptions.parse(["--", "-odd-name.json"]).file == "-odd-name.json")
  }

  @Test(
    "bad usage is an error",
    arguments: [
      (["--batch", "--interactive"], "--batch and --interactive cannot be used together"),
      (["-e"], "-e needs a COMMAND"),
      (["--frob"], #"unknown option "--frob""#),
      (["a.json", "b.json"], #"only one FILE may be given (got "a.json" and "b.json")"#),
    ])
  func invalid(arguments: [String], message: String) {
    #expect(throws: EditorOptions.UsageError(description: message)) {
      _ = try EditorOptions.parse(arguments)
    }
  }

  @Test("bad usage exits with 64")
  func usageStatus() {
    #expect(Editor.main(arguments: ["--frob"], environment: [:], inputIsTerminal: false) == 64)
  }

  @Test(
    "bad usage prints one line naming the mistake and --help, not the whole usage",
    arguments: [
      (["--frob"], #"error: unknown option "--frob"; package-editor --help shows the usage"#),
      (["-e"], "error: -e needs a COMMAND; package-editor --help shows the usage"),
      (
        ["a.json", "b\u{1B}[2J.json"],
        #"error: only one FILE may be given (got "a.json" and "b\u{1b}[2J.json"); package-editor --help shows the usage"#
      ),
    ])
  func oneLineUsageError(arguments: [String], message: String) throws {
    let directory = TemporaryDirectory()
    let run = try EditorProcess.run(arguments, in: directory.path)
    #expect(run.status == 64)
    #expect(run.stdout == "")
    #expect(run.stderr == message + "\n")
  }

  @Test("-e commands run instead of standard input")
  func commands() {
    #expect(
      Editor.main(
        arguments: ["-e", "summary", "--batch"], environment: [:], inputIsTerminal: false) == 0)
    #expect(
      Editor.main(arguments: ["-e", "bogus", "--batch"], environment: [:], inputIsTerminal: false)
        == 1)
  }
}
