import Foundation
import KVOLiteTestSupport
import Synchronization
import Testing

@testable import PackageEditorCLI
@testable import PackageModel

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
    "a save waits while another editor holds the file's lock, then saves; a load waits too"
  )
  func saveAndLoadWaitForTheLock() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("a.json")
    try DataSafetyTests.document("Ann").write(toFile: file, atomically: true, encoding: .utf8)
    let editor = try PseudoTerminal(
      arguments: ["a.json"],
      environment: Self.environment.merging(["HOME": directory.path]) { $1 },
      directory: directory.path)
    #expect(editor.waitFor("package a.json> "))
    // The lock another editor takes: its lock file, beside the package.
    let lockPath = directory.file(".a.json.package-editor-lock")
    let descriptor = open(lockPath, O_WRONLY | O_CREAT, 0o200)
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
    // The editor that took it last removed it.
    #expect(!FileManager.default.fileExists(atPath: lockPath))
    // A load waits for a save in progress the same way.
    let again = open(lockPath, O_WRONLY | O_CREAT, 0o200)
    defer { close(again) }
    #expect(flock(again, LOCK_EX) == 0)
    mark = editor.mark
    editor.type("load\r")
    #expect(!editor.waitFor("loaded a.json", after: mark, seconds: 1))
    #expect(flock(again, LOCK_UN) == 0)
    #expect(editor.waitFor("loaded a.json", after: mark))
    editor.type("quit\r")
    #expect(editor.exitStatus() == 0)
  }

  @Test("a program that only reads the file, holding flock or a read lock on it, stops no editor")
  func readersLocksStopNoEditor() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("a.json")
    try DataSafetyTests.document("Ann").write(toFile: file, atomically: true, encoding: .utf8)
    #expect(link(file, directory.file("link.json")) == 0)
    let reader = open(file, O_RDONLY)
    defer { close(reader) }
    #expect(flock(reader, LOCK_EX) == 0)
    var range = flock()
    range.l_type = Int16(F_RDLCK)
    #expect(fcntl(reader, FileLock.setOpenFileLock, &range) == 0)
    // In place (the file has another link), so the reader's locks stay on the file saved.
    let run = try EditorProcess.run(
      ["a.json", "-e", "set recipient.firstName Bea", "-e", "save", "-e", "load"],
      in: directory.path)
    #expect(run.stderr == "")
    #expect(
      run.stdout == "summary: Bea · from (no name) · no items\nsaved a.json\nloaded a.json\n")
    #expect(run.status == 0)
    #expect(Self.contents(directory.file("link.json")) == Self.contents(file))
  }

  @Test(
    "a save that another program's lock holds up past 5 seconds names that program",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: LockHolder.flock),
      "needs util-linux's flock to hold a lock from another process"))
  func holderIsNamed() throws {
    let directory = TemporaryDirectory()
    try DataSafetyTests.document("Ann").write(
      toFile: directory.file("a.json"), atomically: true, encoding: .utf8)
    let holder = try LockHolder(directory.file(".a.json.package-editor-lock"))
    #expect(holder.isHolding)
    let run = try EditorProcess.run(
      ["a.json", "--keep-going", "-e", "save"], in: directory.path)
    #expect(run.status == 1)
    let user = String(cString: getpwuid(geteuid())!.pointee.pw_name)
    #expect(
      run.stderr
        == "error: cannot start: cannot read a.json: process \(holder.processIdentifier) (flock, user \(user)) holds its lock (.a.json.package-editor-lock) and did not let go in 5 seconds\n"
    )
    holder.release()
    // Once it let go, the lock file it left is taken, and removed after the save.
    let saved = try EditorProcess.run(
      ["a.json", "-e", "set recipient.firstName Bea", "-e", "save"], in: directory.path)
    #expect(saved.status == 0 && saved.stderr == "")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a.json"])
  }
}
