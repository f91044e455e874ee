import Foundation
import KVOLiteTestSupport
import PackageModel
import Testing

@testable import PackageEditorCLI

/// The editor says which file it edits: in the prompt, in `save`'s output and with `file`;
/// `save FILE` writes a copy and keeps the file being edited, `saveas FILE` switches.
@Suite("The file being edited", .serialized)
struct CurrentFileTests {
  @Test("save FILE while editing x.json writes a copy: the last save still writes x.json")
  func saveCopyKeepsTheFile() throws {
    let directory = TemporaryDirectory()
    let run = try EditorProcess.run(
      [
        "x.json", "-e", "set recipient.firstName Ann", "-e", "save y.json", "-e",
        "set sender.firstName Bob", "-e", "file", "-e", "save", "-e", "file",
      ], in: directory.path)
    #expect(run.status == 0 && run.stderr == "")
    #expect(
      run.stdout == """
        summary: Ann · from (no name) · no items
        saved a copy to y.json (still editing x.json)
        summary: Ann · from Bob · no items
        editing x.json (unsaved changes)
        saved x.json
        editing x.json (saved)

        """)
    let x = try PackageFile.read(directory.file("x.json"))
    let y = try PackageFile.read(directory.file("y.json"))
    #expect(x.recipient.firstName == "Ann" && x.sender.firstName == "Bob")
    #expect(y.recipient.firstName == "Ann" && y.sender.firstName == "")
  }

  @Test("saveas switches files and says so; the sample's first save names its file")
  func saveAsSwitches() throws {
    let directory = TemporaryDirectory()
    let run = transcript(
      "file\nsave a.json\nfile\nset recipient.firstName Bea\nsaveas b.json\nfile\nsave\nload",
      directory: directory)
    #expect(run.stderr == "")
    #expect(
      run.stdout == """
        editing the built-in sample package (save <file> to keep it)
        saved a.json (now editing a.json)
        editing a.json (saved)
        summary: Bea Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug
        saved b.json (now editing b.json, was a.json)
        editing b.json (saved)
        saved b.json
        loaded b.json

        """)
    #expect(try PackageFile.read(directory.file("a.json")).recipient.firstName == "Ann")
  }

  @Test("the prompt shows the file and * for unsaved changes, on a terminal")
  func prompt() throws {
    let directory = TemporaryDirectory()
    let terminal = try PseudoTerminal(
      arguments: ["ship.json"],
      environment: ["TERM": "xterm", "HOME": directory.path, "PACKAGE_EDITOR_HISTORY": "off"],
      directory: directory.path)
    let prompt = "\rpackage ship.json> \u{1B}[J"
    #expect(terminal.waitFor("package-editor: editing ship.json; type help"))
    #expect(terminal.waitFor(prompt))
    var mark = terminal.mark
    terminal.type("set recipient.firstName Ann\r")
    #expect(terminal.waitFor("summary: Ann", after: mark, thenPrompt: "package ship.json*> "))
    mark = terminal.mark
    terminal.type("save copy.json\r")
    #expect(
      terminal.waitFor(
        "saved a copy to copy.json (still editing ship.json)", after: mark,
        thenPrompt: "package ship.json*> "))
    mark = terminal.mark
    terminal.type("save\r")
    #expect(terminal.waitFor("saved ship.json", after: mark, thenPrompt: prompt))
    mark = terminal.mark
    terminal.type("saveas other.json\r")
    #expect(
      terminal.waitFor(
        "saved other.json (now editing other.json, was ship.json)", after: mark,
        thenPrompt: "package other.json> "))
    mark = terminal.mark
    terminal.type("undo\r")
    #expect(terminal.waitFor("summary: ", after: mark, thenPrompt: "package other.json*> "))
    terminal.type("quit!\r")
    #expect(terminal.exitStatus() == 0)
  }

  @Test("a long or hostile file name is shortened and escaped in the prompt")
  func hostilePromptName() {
    let session = EditorSession(
      package: .sample(), file: "dir/\u{1B}[31m" + String(repeating: "n", count: 60) + ".json",
      output: CapturedOutput())
    #expect(session.prompt == "package …" + String(repeating: "n", count: 26) + ".json> ")
    let escaped = EditorSession(package: .sample(), file: "a\u{1B}b", output: CapturedOutput())
    #expect(escaped.prompt == "package a\\u{1b}b> ")
  }
}
