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
    #expect(
      try EditorOptions.parse(["--script=a.txt", "-f", "b.txt", "--script", "c.txt", "-e", "-x"])
        == EditorOptions(scripts: [.file("a.txt"), .file("b.txt"), .file("c.txt"), .command("-x")]))
    #expect(try EditorOptions.parse(["--version"]) == EditorOptions(showVersion: true))
  }

  @Test(
    "bad usage is an error",
    arguments: [
      (["--batch", "--interactive"], "--batch and --interactive cannot be used together"),
      (["-e"], "-e needs a COMMAND"),
      (["--script"], "--script needs a SCRIPT file"),
      (["--frob"], #"unknown option "--frob""#),
      (["--batch=yes"], "--batch takes no value (--batch=yes)"),
      (["a.json", "b.json"], #"only one FILE may be given (got "a.json" and "b.json")"#),
    ])
  func invalid(arguments: [String], message: String) {
    #expect(throws: EditorOptions.UsageError(description: message)) {
      _ = try EditorOptions.parse(arguments)
    }
  }

  @Test(
    "bad usage prints one line naming the mistake and --help, not the whole usage, and exits with 64",
    arguments: [
      (["--frob"], #"error: unknown option "--frob"; package-editor --help shows the usage"#),
      (["-e"], "error: -e needs a COMMAND; package-editor --help shows the usage"),
      (["--bach"], #"error: unknown option "--bach"; did you mean "--batch"?"#),
      (["--no-colour"], #"error: unknown option "--no-colour"; did you mean "--no-color"?"#),
      (["--scrpt=a.txt"], #"error: unknown option "--scrpt"; did you mean "--script"?"#),
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
  func commands() throws {
    let directory = TemporaryDirectory()
    let summary = try EditorProcess.run(
      ["-e", "summary", "--batch"], in: directory.path, input: "bogus\n")
    #expect(
      summary
        == EditorProcess.Result(
          stdout:
            "summary: Ann Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug\n",
          stderr: "", status: 0))
    let bogus = try EditorProcess.run(["-e", "bogus", "--batch"], in: directory.path)
    #expect(
      bogus
        == EditorProcess.Result(
          stdout: "", stderr: "-e:1: error: unknown command \"bogus\" (type help for the list)\n",
          status: 1))
  }
}
