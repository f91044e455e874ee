import Foundation
import KVOLiteTestSupport
import PackageModel
import Testing

@testable import PackageEditorCLI

/// The editor never loses or corrupts data: not through undo after a load, a save that meets
/// the file size limit, a full standard output, or a hang-up.
@Suite("Data safety", .serialized)
struct DataSafetyTests {
  /// A package file whose recipient is `name`, as the editor saves it.
  static func document(_ name: String) -> String {
    let package = Package()
    package.recipient.firstName = name
    return String(decoding: PackageDocument(package).encoded(), as: UTF8.self)
  }

  static func contents(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test(
    "undo after load does not bring back the other file's package: save never writes a.json's package into b.json"
  )
  func undoAfterLoad() throws {
    let directory = TemporaryDirectory()
    try Self.document("Ann").write(
      toFile: directory.file("a.json"), atomically: true, encoding: .utf8)
    try Self.document("Bob").write(
      toFile: directory.file("b.json"), atomically: true, encoding: .utf8)
    let run = transcript(
      "load b.json\nundo\nsave", options: EditorOptions(file: "a.json", keepGoing: true),
      directory: directory)
    #expect(run.stdout == "loaded b.json\nsummary: Bob · from (no name) · no items\nsaved b.json\n")
    #expect(run.stderr == "error: undo: nothing to undo\n")
    #expect(Self.contents(directory.file("b.json")) == Self.document("Bob"))
    #expect(Self.contents(directory.file("a.json")) == Self.document("Ann"))
  }

  @Test("interactive load over unsaved changes warns first, and loads when asked again")
  func loadOverUnsavedChanges() throws {
    let directory = TemporaryDirectory()
    try Self.document("Bob").write(
      toFile: directory.file("b.json"), atomically: true, encoding: .utf8)
    let run = transcript(
      "set recipient.firstName Cy\nload b.json\nload b.json\nquit", interactive: true,
      directory: directory)
    #expect(
      run.stderr
        == "warning: there are unsaved changes: save them with save [file], or load again to discard them\n"
    )
    #expect(run.stdout.contains("loaded b.json\nsummary: Bob · from (no name) · no items\n"))
    #expect(run.status == 0)
  }

  /// Whether this process (and so the editor built with it) runs under the thread sanitizer,
  /// whose runtime cannot start under a file size limit of 1 KiB.
  static let underThreadSanitizer =
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

  /// A save that would pass `ulimit -f 1`: the sample package with a long title.
  static let bigSave = ["-e", "add \"\(String(repeating: "x", count: 2_000))\" 1 1", "-e", "save"]

  @Test(
    "a save that meets the file size limit fails with one error; the file is intact; no temporary is left",
    .disabled(if: underThreadSanitizer, "the sanitizer's runtime cannot start under ulimit -f 1"))
  func fileSizeLimit() throws {
    let directory = TemporaryDirectory()
    let original = Self.document("Ann")
    try original.write(toFile: directory.file("a.json"), atomically: true, encoding: .utf8)
    let run = try EditorProcess.run(
      ["a.json"] + Self.bigSave, in: directory.path, fileSizeLimit: 1)
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "-e:2: error: save: cannot write a.json: the file would pass the size limit; saveas FILE saves the package elsewhere\n"
    )
    #expect(Self.contents(directory.file("a.json")) == original)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a.json"])
  }

  @Test(
    "an in-place save (a hard-linked file) that meets the size limit leaves the file as it was",
    .disabled(if: underThreadSanitizer, "the sanitizer's runtime cannot start under ulimit -f 1"))
  func inPlaceFileSizeLimit() throws {
    let directory = TemporaryDirectory()
    let original = Self.document("Ann")
    try original.write(toFile: directory.file("a.json"), atomically: true, encoding: .utf8)
    #expect(link(directory.file("a.json"), directory.file("link.json")) == 0)
    let run = try EditorProcess.run(
      ["a.json"] + Self.bigSave, in: directory.path, fileSizeLimit: 1)
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "-e:2: error: save: cannot write a.json: the file would pass the size limit; saveas FILE saves the package elsewhere\n"
    )
    #expect(Self.contents(directory.file("a.json")) == original)
    #expect(Self.contents(directory.file("link.json")) == original)
    // Without the limit, the in-place save goes through, and the link still shares the file.
    let saved = try EditorProcess.run(["a.json"] + Self.bigSave, in: directory.path)
    #expect(saved.status == 0)
    #expect(Self.contents(directory.file("link.json")) == Self.contents(directory.file("a.json")))
    #expect(
      Self.contents(directory.file("a.json"))?.contains(String(repeating: "x", count: 2_000))
        == true)
  }

  @Test("a write error on standard output is an error: status 1, and said on standard error")
  func fullStandardOutput() throws {
    let directory = TemporaryDirectory()
    let run = try EditorProcess.run(
      ["-e", "show"], in: directory.path, stdoutPath: "/dev/full")
    #expect(run.status == 1)
    #expect(run.stderr == "error: cannot write standard output: no space left on the device\n")
    let version = try EditorProcess.run(["--version"], in: directory.path, stdoutPath: "/dev/full")
    #expect(version.status == 1)
  }

  /// The one recovery file in the state directory `state`, and what the editor says of it on
  /// standard error after the reader of its output went away.
  static func recovered(in state: String, file: String) throws -> (path: String, stderr: String) {
    let folder = state + "/package-editor"
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
      .filter { $0.hasPrefix("recovered-") }
    try #require(names.count == 1)
    let path = folder + "/" + names[0]
    return (
      path,
      "error: cannot write standard output: its reader went away (broken pipe)\n"
        + "warning: standard output failed: the unsaved changes are saved in \(path); to recover them, run package-editor \(path), then saveas \(file)\n"
    )
  }

  @Test(
    "the reader of an interactive session's output goes away (SIGPIPE): the changes go to a recovery file, stderr says so, status 1"
  )
  func readerGoneInteractive() throws {
    let directory = TemporaryDirectory()
    try Self.document("Ann").write(
      toFile: directory.file("pkg.json"), atomically: true, encoding: .utf8)
    let editor = try PipedEditor(
      arguments: ["pkg.json", "--interactive"],
      environment: [
        "HOME": directory.path, "XDG_STATE_HOME": directory.file("state"),
        "PACKAGE_EDITOR_HISTORY": "off",
      ], directory: directory.path)
    #expect(editor.waitFor("package pkg.json> "))
    editor.type("set recipient.firstName Unsaved\n")
    #expect(editor.waitFor("package pkg.json*> "))
    editor.closeOutput()
    editor.type("get recipient.firstName\n")
    let (status, stderr) = editor.finish()
    #expect(status == 1)
    let recovery = try Self.recovered(in: directory.file("state"), file: "pkg.json")
    #expect(stderr == recovery.stderr)
    #expect(try PackageFile.read(recovery.path).recipient.firstName == "Unsaved")
    #expect(Self.contents(directory.file("pkg.json")) == Self.document("Ann"))
  }

  @Test(
    "a batch run whose output reader went away (package-editor | head -1) stops there, keeps its changes, status 1"
  )
  func readerGoneBatch() throws {
    let directory = TemporaryDirectory()
    try Self.document("Ann").write(
      toFile: directory.file("pkg.json"), atomically: true, encoding: .utf8)
    let editor = try PipedEditor(
      arguments: ["pkg.json", "--batch"],
      environment: ["HOME": directory.path, "XDG_STATE_HOME": directory.file("state")],
      directory: directory.path)
    editor.closeOutput()
    // More output than the editor buffers (64 KiB), so that it writes before the end; the
    // save at the end is never reached.
    let script =
      "set recipient.firstName Unsaved\n" + String(repeating: "show\n", count: 3_000) + "save\n"
    editor.type(script)
    let (status, stderr) = editor.finish()
    #expect(status == 1)
    let recovery = try Self.recovered(in: directory.file("state"), file: "pkg.json")
    #expect(stderr == recovery.stderr)
    #expect(try PackageFile.read(recovery.path).recipient.firstName == "Unsaved")
    #expect(Self.contents(directory.file("pkg.json")) == Self.document("Ann"))
  }

  @Test(
    "a hang-up with unsaved changes saves them to a private recovery file, says where, and exits 129"
  )
  func hangUp() throws {
    let directory = TemporaryDirectory()
    let environment = [
      "TERM": "xterm", "HOME": directory.path, "XDG_STATE_HOME": directory.file("state"),
    ]
    let terminal = try PseudoTerminal(arguments: [], environment: environment)
    #expect(terminal.waitFor("package> "))
    let mark = terminal.mark
    terminal.type("set recipient.firstName Zed\r")
    #expect(terminal.waitFor("summary: Zed Smith", after: mark))
    #expect(terminal.waitFor("package> ", after: mark))
    terminal.send(SIGHUP)
    #expect(terminal.exitStatus() == 129)
    let state = directory.file("state/package-editor")
    let recovered = try FileManager.default.contentsOfDirectory(atPath: state)
      .filter { $0.hasPrefix("recovered-") }
    try #require(recovered.count == 1)
    let path = state + "/" + recovered[0]
    // On a line of its own (not after the prompt), saying how to recover.
    #expect(
      terminal.screen.contains(
        "package*> \u{1B}[J\r\u{1B}[10C\r\n\u{1B}[33mwarning: hang-up: the unsaved changes are saved in \(path); to recover them, run package-editor \(path), then saveas FILE"
      ))
    let document = try PackageFile.read(path)
    #expect(document.recipient.firstName == "Zed")
    var info = stat()
    #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
  }

  @Test("SIGTERM with unsaved changes saves them too, and exits 143")
  func terminated() throws {
    let directory = TemporaryDirectory()
    let environment = [
      "TERM": "xterm", "HOME": directory.path, "XDG_STATE_HOME": directory.file("state"),
    ]
    let terminal = try PseudoTerminal(arguments: [], environment: environment)
    #expect(terminal.waitFor("package> "))
    let mark = terminal.mark
    terminal.type("set recipient.lastName Kay\r")
    #expect(terminal.waitFor("summary: Ann Kay", after: mark))
    #expect(terminal.waitFor("package> ", after: mark))
    terminal.send(SIGTERM)
    #expect(terminal.exitStatus() == 143)
    let state = directory.file("state/package-editor")
    let recovered = try FileManager.default.contentsOfDirectory(atPath: state)
      .filter { $0.hasPrefix("recovered-") }
    try #require(recovered.count == 1)
    #expect(terminal.screen.contains("warning: terminated: the unsaved changes are saved in"))
    #expect(try PackageFile.read(state + "/" + recovered[0]).recipient.lastName == "Kay")
  }

  @Test("a hang-up with nothing unsaved exits 129 and saves nothing")
  func hangUpWithNothingUnsaved() throws {
    let directory = TemporaryDirectory()
    let environment = [
      "TERM": "xterm", "HOME": directory.path, "XDG_STATE_HOME": directory.file("state"),
    ]
    let terminal = try PseudoTerminal(arguments: [], environment: environment)
    #expect(terminal.waitFor("package> "))
    terminal.send(SIGHUP)
    #expect(terminal.exitStatus() == 129)
    let state =
      (try? FileManager.default.contentsOfDirectory(atPath: directory.file("state/package-editor")))
      ?? []
    #expect(!state.contains { $0.hasPrefix("recovered-") })
  }
}
