import Foundation
@testable import PackageEditorCLI
import Testing

/// The interactive editor on a pseudo-terminal: keys in, screen out.
@Suite("Interactive terminal")
struct TerminalSessionTests {
  @Test("completion, history across runs, Ctrl-C, Ctrl-D with unsaved changes, quit!")
  func session() throws {
    let directory = TemporaryDirectory()
    let environment = ["TERM": "xterm", "HOME": directory.path, "XDG_STATE_HOME": directory.file("state")]
    let terminal = try PseudoTerminal(arguments: [], environment: environment)
    #expect(terminal.waitFor("package> "))
    var mark = terminal.mark
    terminal.type("get recip\t")
    #expect(terminal.waitFor("get recipient.", after: mark))
    mark = terminal.mark
    terminal.type("first\t\r")
    #expect(terminal.waitFor("get recipient.firstName \r", after: mark))
    #expect(terminal.waitFor("\r\nAnn\r\n", after: mark))
    mark = terminal.mark
    terminal.type("\u{1B}[A")
    #expect(terminal.waitFor("package> get recipient.firstName", after: mark))
    mark = terminal.mark
    terminal.type("\u{3}")
    #expect(terminal.waitFor("^C", after: mark))
    mark = terminal.mark
    terminal.type("set recipient.firstName \"Bea 日本\"\r")
    #expect(terminal.waitFor("summary: Bea 日本 Smith", after: mark))
    mark = terminal.mark
    terminal.type("\u{4}")
    #expect(terminal.waitFor("warning: there are unsaved changes", after: mark))
    #expect(terminal.waitFor("package> ", after: mark))
    terminal.type("\u{4}")
    #expect(terminal.exitStatus() == 0)

    let history = try String(contentsOfFile: directory.file("state/package-editor/history"), encoding: .utf8)
    #expect(history == "get recipient.firstName\nset recipient.firstName \"Bea 日本\"\n")

    let again = try PseudoTerminal(arguments: [], environment: environment)
    #expect(again.waitFor("package> "))
    mark = again.mark
    again.type("\u{1B}[A\u{1B}[A")
    #expect(again.waitFor("package> get recipient.firstName", after: mark))
    mark = again.mark
    again.type("\u{15}new\rquit!\r")
    #expect(again.exitStatus() == 0)
  }

  @Test("PACKAGE_EDITOR_HISTORY=off keeps no file; TERM=dumb reads plain lines")
  func historyOffAndDumbTerminal() throws {
    let directory = TemporaryDirectory()
    let off = try PseudoTerminal(
      arguments: [], environment: ["TERM": "xterm", "HOME": directory.path, "PACKAGE_EDITOR_HISTORY": "off"])
    #expect(off.waitFor("package> "))
    off.type("summary\rquit\r")
    #expect(off.exitStatus() == 0)
    #expect(!FileManager.default.fileExists(atPath: directory.file(".local/state/package-editor/history")))
    let dumb = try PseudoTerminal(arguments: [], environment: ["TERM": "dumb", "HOME": directory.path])
    #expect(dumb.waitFor("package> "))
    let mark = dumb.mark
    dumb.type("get recip\t\r")
    #expect(dumb.waitFor("error: ", after: mark))
    dumb.type("quit\r")
    #expect(dumb.exitStatus() == 0)
  }
}
