import Foundation
import KVOLiteTestSupport
import Testing

@testable import PackageEditorCLI

/// The interactive editor on a pseudo-terminal: keys in, screen out.
@Suite("Interactive terminal")
struct TerminalSessionTests {
  /// The prompt as the editor draws it. Between lines the terminal is not in raw mode (output
  /// is printed with the user's settings), so keys for the next line are typed once it shows.
  let prompt = "\rpackage> \u{1B}[J"
  /// The prompt with unsaved changes.
  let changed = "\rpackage*> \u{1B}[J"

  @Test("completion, history across runs, Ctrl-C, Ctrl-D with unsaved changes, quit!")
  func session() throws {
    let directory = TemporaryDirectory()
    let environment = [
      "TERM": "xterm", "HOME": directory.path, "XDG_STATE_HOME": directory.file("state"),
    ]
    let terminal = try PseudoTerminal(arguments: [], environment: environment)
    #expect(terminal.waitFor("package> "))
    var mark = terminal.mark
    terminal.type("get recip\t")
    #expect(terminal.waitFor("get recipient.", after: mark))
    mark = terminal.mark
    terminal.type("first\t\r")
    #expect(terminal.waitFor("get recipient.firstName \u{1B}[J", after: mark))
    #expect(terminal.waitFor("\r\nAnn\r\n" + prompt, after: mark))
    mark = terminal.mark
    terminal.type("\u{1B}[A")
    #expect(terminal.waitFor("package> get recipient.firstName", after: mark))
    mark = terminal.mark
    terminal.type("\u{3}")
    #expect(terminal.waitFor("^C", after: mark))
    mark = terminal.mark
    terminal.type("set recipient.firstName \"Bea 日本\"\r")
    #expect(terminal.waitFor("summary: Bea 日本 Smith", after: mark, thenPrompt: changed))
    mark = terminal.mark
    terminal.type("\u{4}")
    #expect(terminal.waitFor("warning: there are unsaved changes", after: mark))
    #expect(terminal.waitFor("package*> ", after: mark))
    terminal.type("\u{4}")
    #expect(terminal.exitStatus() == 0)

    let history = try String(
      contentsOfFile: directory.file("state/package-editor/history"), encoding: .utf8)
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

  @Test("cursor editing: Left, Right, Home, End, Backspace, Delete, Ctrl-A, Ctrl-E, Ctrl-K, Ctrl-W")
  func cursorEditing() throws {
    let directory = TemporaryDirectory()
    let terminal = try PseudoTerminal(
      arguments: [],
      environment: ["TERM": "xterm", "HOME": directory.path, "PACKAGE_EDITOR_HISTORY": "off"])
    #expect(terminal.waitFor("package> "))
    var mark = terminal.mark
    // "et recipient.lastNme" → Home, "g" → End, Left Left, "a" → "get recipient.lastName".
    terminal.type("et recipient.lastNme\u{1B}[Hg\u{1B}[F\u{1B}[D\u{1B}[Da\r")
    #expect(terminal.waitFor("\r\nSmith\r\n" + prompt, after: mark))
    mark = terminal.mark
    // "gett x" → Ctrl-A, Right ×3, Backspace → "get x"; Ctrl-E, Ctrl-W → "get "; then
    // "recipient.firstName zz", Left ×3, Ctrl-K → "get recipient.firstName".
    terminal.type(
      "gett x\u{1}\u{1B}[C\u{1B}[C\u{1B}[C\u{7F}\u{5}\u{17}recipient.firstName zz\u{1B}[D\u{1B}[D\u{1B}[D\u{B}\r"
    )
    #expect(terminal.waitFor("\r\nAnn\r\n" + prompt, after: mark))
    mark = terminal.mark
    terminal.type("summaryy\u{1B}[D\u{1B}[3~\r")
    #expect(terminal.waitFor("summary: Ann Smith, 1 Main St", after: mark))
    terminal.type("quit\r")
    #expect(terminal.exitStatus() == 0)
  }

  @Test("a resize redraws a wrapped line at the new width, and the line is kept")
  func resize() throws {
    let directory = TemporaryDirectory()
    let terminal = try PseudoTerminal(
      arguments: [],
      environment: ["TERM": "xterm", "HOME": directory.path, "PACKAGE_EDITOR_HISTORY": "off"])
    #expect(terminal.waitFor("package> "))
    let line = "set recipient.postalAddress.street \"" + String(repeating: "x", count: 64) + "\""
    let end = "package> ".count + line.count
    #expect(end > 80 && end < 120 && end % 40 != 0)
    terminal.type(line)
    #expect(terminal.waitFor("xx\""))
    let mark = terminal.mark
    terminal.resize(columns: 40, rows: 24)
    // Up to the prompt's row (the cursor was on the second of two rows), draw, erase what is
    // left after the line, and put the cursor at its end, on the third row of forty columns.
    #expect(
      terminal.waitFor(
        "\u{1B}[1A\rpackage> " + line + "\u{1B}[J\r\u{1B}[\(end % 40)C", after: mark)
    )
    terminal.type("\r")
    #expect(terminal.waitFor("summary: ", after: mark, thenPrompt: changed))
    terminal.type("get recipient.postalAddress.street\rquit!\r")
    #expect(terminal.waitFor("\r\n" + String(repeating: "x", count: 64) + "\r\n", after: mark))
    #expect(terminal.exitStatus() == 0)
  }

  @Test(
    "after Ctrl-L, each key redraws the line without erasing the whole display (which terminals save to their scrollback)"
  )
  func clearScreenThenType() throws {
    let directory = TemporaryDirectory()
    let terminal = try PseudoTerminal(
      arguments: [],
      environment: ["TERM": "xterm", "HOME": directory.path, "PACKAGE_EDITOR_HISTORY": "off"])
    #expect(terminal.waitFor("package> "))
    let mark = terminal.mark
    let typed = "get recipient.f"
    terminal.type("\u{C}" + typed)
    // The screen is cleared once; then the line is drawn from the top left for each key, and
    // only what follows it is erased.
    let expected =
      "\u{1B}[H\u{1B}[2J"
      + (0...typed.count).map { count in
        "\rpackage> " + typed.prefix(count) + "\u{1B}[J\r\u{1B}[\(9 + count)C"
      }.joined()
    #expect(terminal.waitFor(expected, after: mark))
    #expect(String(terminal.screen[mark...]) == expected)
    var screen = ScreenEraseCounter(columns: 80, rows: 24, row: 3)
    screen.feed(String(terminal.screen[mark...]))
    #expect(screen.wholeDisplayErasures == 1)
    terminal.type("\u{15}quit\r")
    #expect(terminal.exitStatus() == 0)
  }

  @Test(
    "remove, Tab, Tab lists the indexes with their lines' titles, escaped and cut to the width"
  )
  // (The terminal's output processing makes each CR LF the editor writes CR CR LF.)
  func removeListsTitles() throws {
    let directory = TemporaryDirectory()
    let terminal = try PseudoTerminal(
      arguments: [],
      environment: ["TERM": "xterm", "HOME": directory.path, "PACKAGE_EDITOR_HISTORY": "off"])
    #expect(terminal.waitFor("package> "))
    var mark = terminal.mark
    let long = String(repeating: "x", count: 100)
    terminal.type("add \"Lamp\\u{1B}[2J\" 3; add \(long)\r")
    #expect(terminal.waitFor("summary: ", after: mark, thenPrompt: changed))
    mark = terminal.mark
    terminal.type("remove \t\t")
    #expect(
      terminal.waitFor(
        "\r\r\n0  Books ×2\r\r\n1  Mug\r\r\n2  Lamp\\u{1b}[2J ×3\r\r\n3  "
          + String(repeating: "x", count: 76) + "…\r\r\n\rpackage*> remove ", after: mark))
    terminal.type("\u{15}quit!\r")
    #expect(terminal.exitStatus() == 0)
  }

  @Test("PACKAGE_EDITOR_HISTORY=off keeps no file; TERM=dumb reads plain lines")
  func historyOffAndDumbTerminal() throws {
    let directory = TemporaryDirectory()
    let off = try PseudoTerminal(
      arguments: [],
      environment: ["TERM": "xterm", "HOME": directory.path, "PACKAGE_EDITOR_HISTORY": "off"])
    #expect(off.waitFor("package> "))
    off.type("summary\rquit\r")
    #expect(off.exitStatus() == 0)
    #expect(
      !FileManager.default.fileExists(atPath: directory.file(".local/state/package-editor/history"))
    )
    let dumb = try PseudoTerminal(
      arguments: [], environment: ["TERM": "dumb", "HOME": directory.path])
    #expect(dumb.waitFor("package> "))
    let mark = dumb.mark
    dumb.type("get recip\t\r")
    #expect(dumb.waitFor("error: ", after: mark))
    dumb.type("quit\r")
    #expect(dumb.exitStatus() == 0)
  }
}
