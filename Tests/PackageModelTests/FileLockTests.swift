import Foundation
import KVOLiteTestSupport
import Testing

@testable import PackageModel

/// The advisory lock that makes saves and loads of one file take turns.
@Suite("File locks")
struct FileLockTests {
  @Test("a save waits for another program's lock, then gives up with an error that says so")
  func saveWaitsForLock() throws {
    let directory = TemporaryDirectory()
    let file = directory.file("a.json")
    try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
    let descriptor = open(file, O_RDONLY)
    defer { close(descriptor) }
    #expect(flock(descriptor, LOCK_EX) == 0)
    #expect(
      throws: FileSystem.Failure("another program holds a lock on it (waited 0 seconds)")
    ) {
      try FileSystem.writeAtomically(Array("[]".utf8), to: file, lockWait: 0.05)
    }
    #expect(FileManager.default.contents(atPath: file) == Data("{}".utf8))
    // Once the lock is released, the save goes through.
    #expect(flock(descriptor, LOCK_UN) == 0)
    try FileSystem.writeAtomically(Array("[]".utf8), to: file, lockWait: 0.05)
    #expect(FileManager.default.contents(atPath: file) == Data("[]".utf8))
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
