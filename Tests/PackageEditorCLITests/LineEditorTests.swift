import Foundation
import KVOLiteTestSupport
import PackageModel
import Testing

@testable import PackageEditorCLI

@Suite("Line editor")
struct LineEditorTests {
  /// Feeds `bytes` to a fresh editor (through the key decoder); returns the editor and the
  /// outcomes that were not `.editing`.
  static func type(
    _ bytes: String, history: [String] = [],
    completer: @escaping LineEditor.Completer = { _ in .init(word: "", candidates: []) }
  ) -> (LineEditor, [LineEditor.Outcome]) {
    let store = History(file: nil)
    for line in history { store.add(line) }
    var editor = LineEditor(history: store, completer: completer)
    var decoder = KeyDecoder()
    var outcomes: [LineEditor.Outcome] = []
    for key in decoder.feed(Array(bytes.utf8)) + decoder.flush() {
      let outcome = editor.handle(key)
      if outcome != .editing { outcomes.append(outcome) }
    }
    return (editor, outcomes)
  }

  @Test("the decoder reads characters, control keys and the common escape sequences, across reads")
  func decoder() {
    var decoder = KeyDecoder()
    #expect(
      decoder.feed(Array("aé🙂\r\u{7F}\t\u{1}".utf8)) == [
        .character("a"), .character("é"), .character("🙂"), .enter, .backspace, .tab, .control("a"),
      ])
    let arrows =
      "\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF\u{1B}[1~\u{1B}[4~\u{1B}[3~"
    #expect(
      decoder.feed(Array(arrows.utf8)) == [
        .up, .down, .right, .left, .home, .end, .home, .end, .home, .end, .delete,
      ])
    #expect(
      decoder.feed(Array("\u{1B}b\u{1B}f\u{1B}[1;5D\u{1B}[1;5C\u{1B}\u{7F}\u{1B}[99Z".utf8)) == [
        .wordLeft, .wordRight, .wordLeft, .wordRight, .altBackspace, .unknown,
      ])
    // Split reads: an escape sequence and a UTF-8 character cut in two.
    #expect(decoder.feed([0x1B, 0x5B]) == [])
    #expect(decoder.feed([0x41, 0xF0, 0x9F]) == [.up])
    #expect(decoder.feed([0x99, 0x82]) == [.character("🙂")])
    #expect(decoder.feed([0xFF, 0x41]) == [.unknown, .character("A")])
    #expect(decoder.feed([0x1B]) == [] && decoder.hasPending)
    #expect(decoder.flush() == [.unknown] && !decoder.hasPending)
  }

  @Test("editing keys move and delete by character, word and line; kills can be yanked")
  func editing() {
    #expect(Self.type("abc\u{1B}[D\u{1B}[DX").0.buffer.text == "aXbc")
    #expect(Self.type("abc\u{1}X\u{5}Y").0.buffer.text == "XabcY")
    #expect(Self.type("abc\u{2}\u{2}\u{4}").0.buffer.text == "ac")
    #expect(Self.type("abc\u{1B}[H\u{1B}[3~").0.buffer.text == "bc")
    #expect(Self.type("set a.b c\u{17}").0.buffer.text == "set a.b ")
    #expect(Self.type("get recipient.firstName\u{1B}\u{7F}").0.buffer.text == "get recipient.")
    #expect(Self.type("one two\u{1B}b\u{B}\u{1}\u{19}").0.buffer.text == "twoone ")
    #expect(Self.type("one two\u{15}x\u{19}").0.buffer.text == "xone two")
    #expect(Self.type("a b\u{1B}b\u{1B}bX\u{1B}fY").0.buffer.text == "XaY b")
    #expect(Self.type("é🙂👍🏽x\u{7F}\u{7F}\u{7F}").0.buffer.text == "é")
  }

  @Test("Enter submits; Ctrl-C drops the line; Ctrl-D ends input only on an empty line")
  func outcomes() {
    #expect(Self.type("get x\r").1 == [.submitted("get x")])
    let (interrupted, outcomes) = Self.type("abc\u{3}")
    #expect(outcomes == [.interrupted] && interrupted.buffer.isEmpty)
    #expect(Self.type("\u{3}\u{3}").1 == [.interrupted, .interrupted])
    #expect(Self.type("\u{4}").1 == [.endOfInput])
    #expect(Self.type("ab\u{4}").1 == [])
  }

  @Test("Up and Down walk the history and come back to the line being typed")
  func history() {
    let history = ["first", "second", "third"]
    #expect(Self.type("\u{1B}[A", history: history).0.buffer.text == "third")
    #expect(
      Self.type("\u{1B}[A\u{1B}[A\u{1B}[A\u{1B}[A", history: history).0.buffer.text == "first")
    #expect(
      Self.type("draft\u{1B}[A\u{1B}[A\u{1B}[B\u{1B}[B", history: history).0.buffer.text == "draft")
    #expect(Self.type("\u{10}\u{10}\u{E}", history: history).0.buffer.text == "third")
    #expect(Self.type("\u{1B}[A\r", history: history).1 == [.submitted("third")])
    #expect(Self.type("\u{1B}[A").0.buffer.text == "")
  }

  @Test("Ctrl-R searches the history backwards; another Ctrl-R finds an older match")
  func reverseSearch() {
    let history = ["set recipient.firstName A", "get summary", "set recipient.lastName B"]
    let (editor, _) = Self.type("\u{12}set", history: history)
    #expect(editor.buffer.text == "set recipient.lastName B")
    #expect(editor.prompt("package> ") == "(reverse-i-search)'set': ")
    #expect(
      Self.type("\u{12}set\u{12}", history: history).0.buffer.text == "set recipient.firstName A")
    #expect(
      Self.type("\u{12}set\u{12}\u{12}", history: history).0.buffer.text
        == "set recipient.firstName A")
    #expect(Self.type("\u{12}summ\r", history: history).1 == [.submitted("get summary")])
    let (moved, _) = Self.type("\u{12}summ\u{1B}[DX", history: history)
    #expect(moved.buffer.text == "get summarXy" && moved.search == nil)
    #expect(Self.type("abc\u{12}zzz\u{7}", history: history).0.buffer.text == "abc")
  }

  @Test("Tab completes as far as the candidates agree; a second Tab lists them")
  func completion() {
    let completer: LineEditor.Completer = { before in
      let word = String(before.split(separator: " ", omittingEmptySubsequences: false).last ?? "")
      let all = ["recipient.", "remove", "redo", "sender."]
      return LineEditor.Completions(word: word, candidates: all.filter { $0.hasPrefix(word) })
    }
    #expect(Self.type("get recip\t", completer: completer).0.buffer.text == "get recipient.")
    #expect(Self.type("se\t", completer: completer).0.buffer.text == "sender.")
    #expect(Self.type("rem\t", completer: completer).0.buffer.text == "remove ")
    #expect(Self.type("r\t", completer: completer).0.buffer.text == "re")
    #expect(Self.type("re\t", completer: completer).1 == [])
    #expect(
      Self.type("re\t\t", completer: completer).1 == [
        .candidates(["recipient.", "remove", "redo"])
      ])
    #expect(Self.type("zz\t\t", completer: completer).1 == [])
  }

  @Test(
    "the renderer wraps long lines, places the cursor by display width, and redraws from the first row"
  )
  func renderer() {
    var renderer = LineRenderer()
    var buffer = LineBuffer("abcdefgh")
    #expect(
      renderer.draw(prompt: "> ", buffer: buffer, columns: 80) == "\r> abcdefgh\u{1B}[J\r\u{1B}[10C"
    )
    // 2 + 8 = 10 columns on a 4-column terminal: rows 0, 1, 2 (cursor at column 2 of row 2).
    #expect(
      renderer.draw(prompt: "> ", buffer: buffer, columns: 4) == "\r> abcdefgh\u{1B}[J\r\u{1B}[2C")
    #expect(renderer.cursorRow == 2)
    buffer.moveHome()
    #expect(
      renderer.draw(prompt: "> ", buffer: buffer, columns: 4)
        == "\u{1B}[2A\r> abcdefgh\u{1B}[J\u{1B}[2A\r\u{1B}[2C")
    #expect(renderer.cursorRow == 0)
    // Exactly full: the cursor is moved to the next row explicitly.
    var full = LineRenderer()
    #expect(full.draw(prompt: "> ", buffer: LineBuffer("ab"), columns: 4) == "\r> ab\r\n\u{1B}[J\r")
    // Wide characters take two columns.
    var wide = LineRenderer()
    #expect(
      wide.draw(prompt: "", buffer: LineBuffer("日本x"), columns: 80) == "\r日本x\u{1B}[J\r\u{1B}[5C")
    #expect(
      DisplayWidth.of("e\u{301}") == 1 && DisplayWidth.of("🙂") == 2 && DisplayWidth.of("👍🏽") == 2)
  }

  @Test(
    "completions from the session: commands, key paths by segment, indexes, operators, options, files"
  )
  func sessionCompletions() throws {
    let directory = TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: directory.file("sub"), withIntermediateDirectories: false)
    try Data().write(to: URL(fileURLWithPath: directory.file("parcel.json")))
    try Data().write(to: URL(fileURLWithPath: directory.file("evil\u{1B}]0;x\u{7}.json")))
    let session = EditorSession(
      package: .sample(), file: nil, output: CapturedOutput(), directory: directory.path)
    func complete(_ text: String) -> [String] { session.completions(for: text).candidates }
    #expect(complete("su") == ["summary"])
    #expect(complete("qu") == ["quit", "quit!"])
    #expect(complete("get recip") == ["recipient."])
    #expect(complete("set recipient.postal") == ["recipient.postalAddress."])
    #expect(
      complete("get recipient.postalAddress.c") == [
        "recipient.postalAddress.city", "recipient.postalAddress.country",
      ])
    #expect(
      complete("get contents.") == [
        "contents.0.", "contents.1.", "contents.@avg.", "contents.@count",
        "contents.@distinctUnionOfArrays.", "contents.@distinctUnionOfObjects.", "contents.@max.",
        "contents.@min.", "contents.@sum.", "contents.@unionOfArrays.", "contents.@unionOfObjects.",
      ])
    #expect(complete("get contents.@s") == ["contents.@sum."])
    #expect(complete("get contents.1.q") == ["contents.1.quantity"])
    #expect(complete("watch contents ") == ["initial", "new", "old", "prior"])
    #expect(complete("watch contents o") == ["old"])
    #expect(complete("save p") == ["parcel.json"])
    #expect(complete("load s") == ["sub/"])
    #expect(complete("set recipient.firstName \"Ann") == [])
    #expect(complete("add ") == [])
    #expect(complete("remove ") == ["0", "1"])
    #expect(session.completions(for: "remove ").notes == ["0": "Books ×2", "1": "Mug"])
    #expect(session.completions(for: "insert 1").notes == ["1": "Mug"])
    #expect(session.completions(for: "get contents.").notes == [:])
    // A file name a line could not show is not offered.
    #expect(complete("save e") == [])
    #expect(complete("insert 1 ") == [])
    #expect(complete("help w") == ["watch", "watches"])
    #expect(complete("help k") == ["keys"])
    #expect(complete("e") == ["exit"])
    #expect(complete("unwatch ") == ["all"])
    #expect(session.run("watch recipient.firstName").succeeded)
    #expect(complete("unwatch ") == ["all", "recipient.firstName"])
    #expect(complete("unwatch r") == ["recipient.firstName"])
    #expect(complete("frob ") == [])
  }

  @Test(
    "history: bounded, no repeats or blanks, kept in a file across runs, off when asked; unwritable is a warning"
  )
  func historyFile() throws {
    let directory = TemporaryDirectory()
    #expect(
      History.file(in: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/package-editor/history")
    #expect(History.file(in: ["HOME": "/h"]) == "/h/.local/state/package-editor/history")
    #expect(History.file(in: ["HOME": "/h", "PACKAGE_EDITOR_HISTORY": "off"]) == nil)
    #expect(History.file(in: [:]) == nil)
    let file = directory.file("state/package-editor/history")
    let history = History(file: file)
    for line in ["a", "a", "  ", "b  ", "multi\nline \\ x"] { #expect(history.add(line) == nil) }
    // A control character is kept as its escape: recalled, it never reaches the terminal raw.
    #expect(history.entries == ["a", "b", #"multi\nline \ x"#])
    #expect(History(file: file).entries == ["a", "b", #"multi\nline \ x"#])
    for index in 0..<(3 * History.limit) { history.add("line \(index)") }
    let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
    #expect(lines.count <= 2 * History.limit)
    let reloaded = History(file: file)
    #expect(reloaded.entries.count == History.limit)
    #expect(
      reloaded.entries.first == "line \(2 * History.limit)"
        && reloaded.entries.last == "line \(3 * History.limit - 1)")
    try Data().write(to: URL(fileURLWithPath: directory.file("blocker")))
    let blocked = History(file: directory.file("blocker/history"))
    #expect(blocked.add("x")?.hasPrefix("cannot write the history file") == true)
    #expect(blocked.entries == ["x"])
  }
}
