import Foundation
import KVOLiteTestSupport
import PackageModel
import Synchronization
import Testing

@testable import PackageEditorCLI

/// Files that other editors and programs share: a save never silently drops another's change,
/// and two editors saving one file at once never corrupt it.
@Suite("Shared files", .serialized)
struct SharedFileTests {
  static let environment = ["TERM": "xterm", "PACKAGE_EDITOR_HISTORY": "off"]

  static func contents(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test(
    "two editors on one file: the second save is refused, names the way out, and load takes the other's change"
  )
  func lostUpdate() throws {
    let directory = TemporaryDirectory()
    let shared = directory.file("shared.json")
    try DataSafetyTests.document("Ann").write(toFile: shared, atomically: true, encoding: .utf8)
    // B opens the file at a terminal.
    let editor = try PseudoTerminal(
      arguments: ["shared.json"],
      environment: Self.environment.merging(["HOME": directory.path]) { $1 },
      directory: directory.path)
    #expect(editor.waitFor("package shared.json> "))
    // A sets the recipient and saves.
    let other = try EditorProcess.run(
      [shared, "-e", "set recipient.firstName Zed", "-e", "save"], in: directory.path)
    #expect(other.status == 0 && other.stderr == "")
    // B sets the sender and saves: refused.
    var mark = editor.mark
    editor.type("set sender.firstName Yan\r")
    #expect(editor.waitFor("package shared.json*> ", after: mark))
    mark = editor.mark
    editor.type("save\r")
    #expect(
      editor.waitFor(
        "error: save: not saved: shared.json: it changed on disk since it was loaded or last saved; save! overwrites it, load shared.json takes its version (dropping these changes), saveas FILE saves them elsewhere",
        after: mark))
    #expect(try PackageFile.read(shared).recipient.firstName == "Zed")
    // B takes A's version (asked twice: it drops B's unsaved change), and saves on top of it.
    mark = editor.mark
    editor.type("load\r")
    #expect(editor.waitFor("warning: there are unsaved changes", after: mark))
    mark = editor.mark
    editor.type("load\r")
    #expect(editor.waitFor("loaded shared.json", after: mark))
    mark = editor.mark
    editor.type("set sender.firstName Yan; save\r")
    #expect(editor.waitFor("saved shared.json", after: mark))
    let document = try PackageFile.read(shared)
    #expect(document.recipient.firstName == "Zed" && document.sender.firstName == "Yan")
    // save! overwrites another's change.
    _ = try EditorProcess.run(
      [shared, "-e", "set recipient.firstName Abe", "-e", "save"], in: directory.path)
    mark = editor.mark
    editor.type("set sender.firstName Kim\rsave!\r")
    #expect(editor.waitFor("saved shared.json", after: mark))
    #expect(try PackageFile.read(shared).sender.firstName == "Kim")
    #expect(try PackageFile.read(shared).recipient.firstName == "Zed")
    editor.type("quit\r")
    #expect(editor.exitStatus() == 0)
  }

  @Test("a file another program created after the editor started on it is not overwritten")
  func createdMeanwhile() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("new.json")
    let editor = try PseudoTerminal(
      arguments: ["new.json"],
      environment: Self.environment.merging(["HOME": directory.path]) { $1 },
      directory: directory.path)
    #expect(editor.waitFor("package new.json> "))
    try DataSafetyTests.document("Other").write(toFile: path, atomically: true, encoding: .utf8)
    let mark = editor.mark
    editor.type("set recipient.firstName Mine\rsave\r")
    #expect(
      editor.waitFor(
        "error: save: not saved: new.json: another program created it since this package was started",
        after: mark))
    #expect(Self.contents(path) == DataSafetyTests.document("Other"))
    editor.type("quit!\r")
    #expect(editor.exitStatus() == 0)
  }

  @Test(
    "two editors saving a hard-linked file in place at once, and a third loading it: never a corrupt file"
  )
  func concurrentInPlaceSaves() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("a.json")
    try DataSafetyTests.document("Ann").write(toFile: file, atomically: true, encoding: .utf8)
    #expect(link(file, directory.file("link.json")) == 0)
    let rounds = 150
    // One writer's package is short, the other's long, so that each save grows or shrinks
    // the file: the in-place write that goes wrong leaves it truncated or padded.
    let short = Array(repeating: ["set recipient.firstName Short", "save!"], count: rounds)
      .flatMap { $0 }
    let long =
      (0..<40).map { "add \"Item \($0) with a long title\" 2 1.5" }
      + Array(repeating: ["set recipient.firstName Long", "save!"], count: rounds).flatMap { $0 }
    let loads = Array(repeating: "load a.json", count: rounds * 2)
    let scripts = [short, long, loads].map { $0.joined(separator: "\n") + "\n" }
    let results = Mutex<[EditorProcess.Result?]>([nil, nil, nil])
    let path = directory.path
    DispatchQueue.concurrentPerform(iterations: 3) { index in
      let result = try? EditorProcess.run(
        ["a.json", "--batch", "--keep-going"], in: path, input: scripts[index])
      results.withLock { $0[index] = result }
    }
    for result in results.withLock({ $0 }) {
      #expect(result?.status == 0)
      #expect(result?.stderr == "")
    }
    let final = try PackageFile.read(file)
    #expect(["Short", "Long"].contains(final.recipient.firstName))
    #expect(Self.contents(directory.file("link.json")) == Self.contents(file))
  }
}

extension SharedFileTests {
  @Test(
    "an in-place save waits while another program holds the file's lock, then saves; a load waits too"
  )
  func saveAndLoadWaitForTheLock() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("a.json")
    try DataSafetyTests.document("Ann").write(toFile: file, atomically: true, encoding: .utf8)
    #expect(link(file, directory.file("link.json")) == 0)
    let editor = try PseudoTerminal(
      arguments: ["a.json"],
      environment: Self.environment.merging(["HOME": directory.path]) { $1 },
      directory: directory.path)
    #expect(editor.waitFor("package a.json> "))
    let descriptor = open(file, O_RDONLY)
    defer { close(descriptor) }
    #expect(flock(descriptor, LOCK_EX) == 0)
    var mark = editor.mark
    editor.type("set recipient.firstName Bea\rsave\r")
    // While the lock is held (the editor waits up to 5 seconds), nothing is written.
    #expect(!editor.waitFor("saved a.json", after: mark, seconds: 1))
    #expect(Self.contents(file) == DataSafetyTests.document("Ann"))
    #expect(flock(descriptor, LOCK_UN) == 0)
    #expect(editor.waitFor("saved a.json", after: mark))
    #expect(try PackageFile.read(file).recipient.firstName == "Bea")
    // A load waits for a save in progress (an exclusive lock) the same way.
    #expect(flock(descriptor, LOCK_EX) == 0)
    mark = editor.mark
    editor.type("load\r")
    #expect(!editor.waitFor("loaded a.json", after: mark, seconds: 1))
    #expect(flock(descriptor, LOCK_UN) == 0)
    #expect(editor.waitFor("loaded a.json", after: mark))
    editor.type("quit\r")
    #expect(editor.exitStatus() == 0)
  }
}
