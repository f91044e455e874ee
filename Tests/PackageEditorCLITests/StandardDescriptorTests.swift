import Foundation
import KVOLiteTestSupport
import Testing

@testable import PackageEditorCLI

/// The editor started with a standard descriptor closed, as `cmd <&-` or `cmd >&-` starts it:
/// an error with status 1, never a hang, and nothing of the editor's own takes the number.
@Suite("Closed standard descriptors", .serialized)
struct StandardDescriptorTests {
  @Test("standard input closed: one error, status 1, at once (the signal pipe is not fd 0)")
  func closedInput() throws {
    let directory = TemporaryDirectory()
    let run = try EditorProcess.run([], in: directory.path, redirections: "<&-", timeout: 20)
    #expect(run.status == 1)
    #expect(run.stderr == "<stdin>:1: error: cannot read standard input: bad file descriptor\n")
    #expect(run.stdout == "")
    let interactive = try EditorProcess.run(
      ["--interactive"], in: directory.path, redirections: "<&-", timeout: 20)
    #expect(interactive.status == 1)
    #expect(interactive.stderr == "error: cannot read standard input: bad file descriptor\n")
  }

  @Test("standard input closed does not matter when -e gives the commands")
  func closedInputWithCommands() throws {
    let directory = TemporaryDirectory()
    let run = try EditorProcess.run(
      ["-e", "get recipient.firstName"], in: directory.path, redirections: "<&-", timeout: 20)
    #expect(run.status == 0)
    #expect(run.stdout == "Ann\n" && run.stderr == "")
  }

  @Test("standard output closed: writing is an error, status 1; nothing written is no error")
  func closedOutput() throws {
    let directory = TemporaryDirectory()
    let run = try EditorProcess.run(
      ["-e", "get recipient.firstName"], in: directory.path, redirections: ">&-", timeout: 20)
    #expect(run.status == 1)
    #expect(run.stderr == "error: cannot write standard output: Bad file descriptor\n")
    let silent = try EditorProcess.run(
      ["-e", "# nothing to print"], in: directory.path, redirections: "<&- >&-", timeout: 20)
    #expect(silent.status == 0 && silent.stderr == "")
  }

  @Test("all three closed: the editor still ends, with status 1")
  func allClosed() throws {
    let directory = TemporaryDirectory()
    let run = try EditorProcess.run(
      [], in: directory.path, redirections: "<&- >&- 2>&-", timeout: 20)
    #expect(run.status == 1)
    #expect(run.stdout == "" && run.stderr == "")
  }
}
