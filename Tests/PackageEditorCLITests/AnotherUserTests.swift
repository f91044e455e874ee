import Foundation
import KVOLiteTestSupport
import Testing

@testable import PackageModel

/// A second user, `nobody`, next to the owner of a package file: one who may only read the file
/// can stop neither its owner nor another writer, cannot take the lock editors take turns with,
/// and is told what it may do instead.
@Suite(
  "Another user", .serialized,
  .enabled(
    if: LockHolder.canActAsNobody,
    "needs root, the user nobody, and util-linux's setpriv and flock to act as a second user"))
struct AnotherUserTests {
  /// A directory of root's that others may enter, holding root's `a.json` (0644): a file
  /// another user can read but not write.
  static func shared() throws -> TemporaryDirectory {
    let directory = TemporaryDirectory()
    #expect(chmod(directory.path, 0o755) == 0)
    try DataSafetyTests.document("Ann").write(
      toFile: directory.file("a.json"), atomically: true, encoding: .utf8)
    #expect(chmod(directory.file("a.json"), 0o644) == 0)
    return directory
  }

  @Test("a reader holding an exclusive flock on the file stops neither start-up nor save nor load")
  func readerCannotBlockOwner() throws {
    let directory = try Self.shared()
    let reader = try LockHolder(directory.file("a.json"), asNobody: true)
    #expect(reader.isHolding)
    let run = try EditorProcess.run(
      ["a.json", "-e", "set recipient.firstName Bea", "-e", "save", "-e", "load"],
      in: directory.path)
    #expect(run.stderr == "")
    #expect(
      run.stdout == "summary: Bea · from (no name) · no items\nsaved a.json\nloaded a.json\n")
    #expect(run.status == 0)
    reader.release()
    #expect(try PackageFile.read(directory.file("a.json")).recipient.firstName == "Bea")
  }

  @Test("a reader cannot take the editors' lock: it can neither create the lock file nor open it")
  func readerCannotTakeTheLock() throws {
    let directory = try Self.shared()
    let lockPath = directory.file(".a.json.package-editor-lock")
    let creating = try LockHolder(lockPath, asNobody: true)
    #expect(!creating.isHolding)
    #expect(!FileManager.default.fileExists(atPath: lockPath))
    // While an editor holds it, the lock file is there, and the reader cannot open it.
    let lock = try FileLock.acquire(directory.file("a.json"), wait: 1)
    #expect(FileManager.default.fileExists(atPath: lockPath))
    let opening = try LockHolder(lockPath, asNobody: true)
    #expect(!opening.isHolding)
    lock.release()
    #expect(!FileManager.default.fileExists(atPath: lockPath))
  }

  @Test("a reader's save says why it cannot write, and what it can do instead")
  func readersSave() throws {
    let directory = try Self.shared()
    try DataSafetyTests.document("Cy").write(
      toFile: directory.file("ro.json"), atomically: true, encoding: .utf8)
    #expect(chmod(directory.file("ro.json"), 0o444) == 0)
    let way = "; saveas FILE saves the package elsewhere\n"
    let denied = try EditorProcess.run(
      ["a.json", "-e", "set recipient.firstName Bea", "-e", "save"], in: directory.path,
      asNobody: true)
    #expect(denied.status == 1)
    #expect(
      denied.stderr
        == "-e:2: error: save: cannot write a.json: permission denied: user nobody may not write it (it belongs to root, rw-r--r--)"
        + way)
    let readOnly = try EditorProcess.run(
      ["ro.json", "-e", "set recipient.firstName Bea", "-e", "save"], in: directory.path,
      asNobody: true)
    #expect(
      readOnly.stderr
        == "-e:2: error: save: cannot write ro.json: the file is read-only, and only its owner (root) can make it writable"
        + way)
    let fresh = try EditorProcess.run(
      ["new.json", "-e", "save"], in: directory.path, asNobody: true)
    #expect(
      fresh.stderr
        == "-e:1: error: save: cannot write new.json: permission denied: user nobody may not create files in its directory"
        + way)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
        "a.json", "ro.json",
      ])
    #expect(try PackageFile.read(directory.file("a.json")).recipient.firstName == "Ann")
  }

  @Test(
    "a writer who may not write the directory saves in place: a read lock does not stop it, a writer's lock does, named"
  )
  func writerInAClosedDirectory() throws {
    let directory = try Self.shared()
    let file = directory.file("a.json")
    #expect(chmod(file, 0o666) == 0)
    // A reader's lock on the whole file (an open file description's, as editors take them).
    let reader = open(file, O_RDONLY)
    defer { close(reader) }
    var range = flock()
    range.l_type = Int16(F_RDLCK)
    #expect(fcntl(reader, FileLock.setOpenFileLock, &range) == 0)
    let saved = try EditorProcess.run(
      ["a.json", "-e", "set recipient.firstName Bea", "-e", "save"], in: directory.path,
      asNobody: true)
    #expect(saved.stderr == "")
    #expect(saved.status == 0)
    #expect(try PackageFile.read(file).recipient.firstName == "Bea")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a.json"])
    range.l_type = Int16(F_UNLCK)
    #expect(fcntl(reader, FileLock.setOpenFileLock, &range) == 0)
    // Another writer's lock (a save in progress): the editor waits for it, then says so (the
    // system does not tell who holds such a lock); here at start-up, whose load waits too.
    let writer = open(file, O_RDWR)
    defer { close(writer) }
    range.l_type = Int16(F_WRLCK)
    #expect(fcntl(writer, FileLock.setOpenFileLock, &range) == 0)
    let waited = try EditorProcess.run(
      ["a.json", "-e", "set recipient.firstName Cy", "-e", "save"], in: directory.path,
      asNobody: true)
    #expect(waited.status == 1)
    #expect(
      waited.stderr
        == "error: cannot start: cannot read a.json: another program holds a lock on it and did not let go in 5 seconds\n"
    )
    range.l_type = Int16(F_UNLCK)
    #expect(fcntl(writer, FileLock.setOpenFileLock, &range) == 0)
    #expect(try PackageFile.read(file).recipient.firstName == "Bea")
  }
}
