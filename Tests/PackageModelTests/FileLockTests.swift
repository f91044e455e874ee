import Foundation
import KVOLiteTestSupport
import Testing

@testable import PackageModel

/// The lock that makes saves and loads of one file take turns: a lock file beside the package,
/// which only those who may write the package can create or open, so that a program that may
/// only read the package can never hold up its writers.
@Suite("File locks", .serialized)
struct FileLockTests {
  /// This process's name as the system shows it (`/proc/self/comm`), as the lock names it.
  static var processName: String {
    ((try? String(contentsOfFile: "/proc/self/comm", encoding: .utf8)) ?? "")
      .trimmingCharacters(in: .newlines)
  }

  static var userName: String { String(cString: getpwuid(geteuid())!.pointee.pw_name) }

  static func contents(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  @Test("a reader's locks on the package (an exclusive flock, a read lock) stop no save or load")
  func readersLocksStopNothing() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("a.json")
    try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
    // A hard link: saves rewrite the file in place, so the reader's locks stay on it.
    #expect(link(file, directory.file("link.json")) == 0)
    let reader = open(file, O_RDONLY)
    defer { close(reader) }
    #expect(flock(reader, LOCK_EX) == 0)
    var range = flock()
    range.l_type = Int16(F_RDLCK)
    #expect(fcntl(reader, FileLock.setOpenFileLock, &range) == 0)
    try FileSystem.writeAtomically(Array("[1]".utf8), to: file, lockWait: 0.05)
    #expect(try FileSystem.read(file, lockWait: 0.05) == Array("[1]".utf8))
    // Replaced by a rename: the locks were on the file replaced.
    #expect(unlink(directory.file("link.json")) == 0)
    try FileSystem.writeAtomically(Array("[2]".utf8), to: file, lockWait: 0.05)
    #expect(Self.contents(file) == "[2]")
  }

  @Test("a save or a load waits for the lock file another program holds, then names that program")
  func holderIsNamed() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("a.json")
    try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
    let lockPath = directory.file(".a.json.package-editor-lock")
    #expect(FileLock.path(for: file) == lockPath)
    let holder = open(lockPath, O_WRONLY | O_CREAT, 0o200)
    #expect(flock(holder, LOCK_EX) == 0)
    let failure = FileSystem.Failure(
      "process \(getpid()) (\(Self.processName), user \(Self.userName)) holds its lock (\(lockPath)) and did not let go in 0.05 seconds"
    )
    #expect(throws: failure) {
      try FileSystem.writeAtomically(Array("[]".utf8), to: file, lockWait: 0.05)
    }
    #expect(throws: failure) { try FileSystem.read(file, lockWait: 0.05) }
    #expect(Self.contents(file) == "{}")
    #expect(flock(holder, LOCK_UN) == 0)
    close(holder)
    // Let go: the save takes the lock file left behind, and removes it once done.
    try FileSystem.writeAtomically(Array("[]".utf8), to: file, lockWait: 0.05)
    #expect(Self.contents(file) == "[]")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a.json"])
  }

  @Test(
    "the lock file is beside the package, writable by whoever may write the package, readable by no one"
  )
  func lockFilePermissions() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("a.json")
    for (mode, expected) in [(0o644, 0o200), (0o664, 0o220), (0o666, 0o222), (0o444, 0o200)] {
      try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
      #expect(chmod(file, mode_t(mode)) == 0)
      let lock = try FileLock.acquire(file, wait: 0.05)
      var info = stat()
      #expect(lstat(FileLock.path(for: file), &info) == 0)
      #expect(Int(info.st_mode & 0o7777) == expected)
      #expect(info.st_uid == geteuid())
      lock.release()
      #expect(lstat(FileLock.path(for: file), &info) != 0 && errno == ENOENT)
      #expect(unlink(file) == 0)
    }
    // No package yet: only its creator may write the lock file.
    let lock = try FileLock.acquire(file, wait: 0.05)
    var info = stat()
    #expect(lstat(FileLock.path(for: file), &info) == 0 && info.st_mode & 0o7777 == 0o200)
    lock.release()
  }

  @Test("a name too long for the lock file's gets a short lock file named by its hash")
  func longName() throws {
    let directory = TemporaryDirectory()
    let name = String(repeating: "n", count: 250) + ".json"
    let lockPath = FileLock.path(for: directory.file(name))
    #expect(lockPath == directory.file(".package-editor-lock-") + lockPath.suffix(16))
    #expect(lockPath.suffix(16).allSatisfy { $0.isHexDigit })
    #expect(FileLock.path(for: directory.file(name)) == lockPath)
    #expect(FileLock.path(for: directory.file(name + "x")) != lockPath)
    try FileSystem.writeAtomically(Array("[]".utf8), to: directory.file(name), lockWait: 0.05)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [name])
  }

  @Test(
    "a lock file another user planted in a sticky shared directory is not waited for",
    .enabled(if: geteuid() == 0, "needs root to plant a file as another user"))
  func plantedLockFile() throws {
    let directory = TemporaryDirectory()
    #expect(chmod(directory.path, 0o1777) == 0)
    let file = directory.file("a.json")
    try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
    let planted = open(FileLock.path(for: file), O_WRONLY | O_CREAT, 0o666)
    defer { close(planted) }
    #expect(fchown(planted, 65534, 65534) == 0 && fchmod(planted, 0o666) == 0)
    #expect(flock(planted, LOCK_EX) == 0)
    try FileSystem.writeAtomically(Array("[]".utf8), to: file, lockWait: 0.05)
    #expect(Self.contents(file) == "[]")
    // It is not the editor's to remove.
    #expect(FileManager.default.fileExists(atPath: FileLock.path(for: file)))
  }

  @Test("a save over a snapshot refuses a file that changed, or appeared, since")
  func expectations() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("a.json")
    try FileSystem.writeAtomically(Array("one".utf8), to: file, expecting: .absent)
    #expect(throws: FileSystem.Failure.conflict(created: true)) {
      try FileSystem.writeAtomically(Array("two".utf8), to: file, expecting: .absent)
    }
    #expect(throws: FileSystem.Failure.conflict(created: false)) {
      try FileSystem.writeAtomically(
        Array("two".utf8), to: file, expecting: .contents(Array("zero".utf8)))
    }
    try FileSystem.writeAtomically(
      Array("two".utf8), to: file, expecting: .contents(Array("one".utf8)))
    #expect(FileManager.default.contents(atPath: file) == Data("two".utf8))
  }
}
