import Foundation
import KVOLiteTestSupport
import PackageModel
import Testing

/// Saving and loading where the file system is hostile: links, permissions, special files,
/// long names, a full disk. Each failure must leave the file on disk and the package in memory
/// as they were.
@Suite("Package files: faults")
struct PackageFileFaultTests {
  let directory: String
  let package = Package.sample()

  init() throws {
    directory = try PackageFileTests.directory().path
  }

  func path(_ name: String) -> String { directory + "/" + name }

  func contents(_ name: String) throws -> String {
    try String(contentsOfFile: path(name), encoding: .utf8)
  }

  func write(_ text: String, to name: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
  }

  func mode(_ name: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path(name))[.posixPermissions] as? Int) ?? -1
  }

  var saved: String { String(decoding: PackageDocument(package).encoded(), as: UTF8.self) }

  /// Expects a save to `name` to fail with `reason`, changing neither the package nor the
  /// directory.
  func expectSaveFails(_ name: String, reason: String) throws {
    let before = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    let document = PackageDocument(package)
    #expect(throws: PackageFileError.unwritable(path: path(name), reason: reason)) {
      try PackageFile.save(package, to: path(name))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == before)
    #expect(PackageDocument(package) == document)
  }

  @Test("a symbolic link is written through: the link stays a link, its target gets the document")
  func symbolicLink() throws {
    try FileManager.default.createDirectory(
      atPath: path("real"), withIntermediateDirectories: false)
    try write("old", to: "real/p.json")
    try FileManager.default.createSymbolicLink(
      atPath: path("link.json"), withDestinationPath: "real/p.json")
    try FileManager.default.createSymbolicLink(
      atPath: path("chain.json"), withDestinationPath: "link.json")
    try PackageFile.save(package, to: path("chain.json"))
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: path("link.json")) == "real/p.json")
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: path("chain.json")) == "link.json")
    #expect(try contents("real/p.json") == saved)
    #expect(try FileManager.default.contentsOfDirectory(atPath: path("real")) == ["p.json"])
    #expect(try PackageFile.read(path("chain.json")) == PackageDocument(package))
  }

  @Test("a dangling link names the file to create; a loop of links is an error")
  func danglingAndLoop() throws {
    try FileManager.default.createSymbolicLink(
      atPath: path("dangling.json"), withDestinationPath: "new.json")
    #expect(try PackageFile.readIfPresent(path("dangling.json")) == nil)
    try PackageFile.save(package, to: path("dangling.json"))
    #expect(try contents("new.json") == saved)
    try FileManager.default.createSymbolicLink(atPath: path("a"), withDestinationPath: "b")
    try FileManager.default.createSymbolicLink(atPath: path("b"), withDestinationPath: "a")
    try expectSaveFails("a", reason: "too many levels of symbolic links")
  }

  @Test("an existing file keeps its permissions; a new one gets the default")
  func permissions() throws {
    for mode in [0o600, 0o640, 0o755] {
      try write("old", to: "p.json")
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path("p.json"))
      try PackageFile.save(package, to: path("p.json"))
      #expect(try self.mode("p.json") == mode)
      #expect(try contents("p.json") == saved)
    }
    let mask = umask(0o022)
    umask(mask)
    try PackageFile.save(package, to: path("fresh.json"))
    #expect(try self.mode("fresh.json") == 0o666 & ~Int(mask))
  }

  @Test("a read-only file is refused and left as it was")
  func readOnly() throws {
    try write("old", to: "p.json")
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path("p.json"))
    try expectSaveFails(
      "p.json", reason: "the file is read-only (chmod u+w \(path("p.json")) makes it writable)")
    #expect(try contents("p.json") == "old")
    #expect(try mode("p.json") == 0o444)
  }

  @Test("directories, FIFOs and devices are refused for save and load, without blocking")
  func specialFiles() throws {
    try FileManager.default.createDirectory(atPath: path("dir"), withIntermediateDirectories: false)
    #expect(mkfifo(path("fifo"), 0o644) == 0)
    try expectSaveFails("dir", reason: "it is a directory, not a regular file")
    try expectSaveFails("fifo", reason: "it is a FIFO, not a regular file")
    #expect(
      throws: PackageFileError.unreadable(
        path: path("dir"), reason: "it is a directory, not a regular file")
    ) {
      try PackageFile.read(path("dir"))
    }
    #expect(
      throws: PackageFileError.unreadable(
        path: path("fifo"), reason: "it is a FIFO, not a regular file")
    ) {
      try PackageFile.read(path("fifo"))
    }
    #expect(
      throws: PackageFileError.unwritable(
        path: "/dev/null", reason: "it is a character device, not a regular file")
    ) {
      try PackageFile.save(package, to: "/dev/null")
    }
    #expect(
      throws: PackageFileError.unreadable(
        path: "/dev/zero", reason: "it is a character device, not a regular file")
    ) {
      try PackageFile.read("/dev/zero")
    }
  }

  @Test("a hard-linked file is rewritten in place, so that every name sees the new document")
  func hardLink() throws {
    try write("old content, longer than nothing", to: "p.json")
    try FileManager.default.linkItem(atPath: path("p.json"), toPath: path("q.json"))
    try PackageFile.save(package, to: path("p.json"))
    #expect(try contents("q.json") == saved)
    #expect(try contents("p.json") == saved)
    #expect(
      try FileManager.default.attributesOfItem(atPath: path("p.json"))[.referenceCount] as? Int == 2
    )
  }

  @Test("every name the file system accepts can be saved; longer ones and a trailing / are errors")
  func names() throws {
    let longest = String(repeating: "n", count: 250) + ".json"
    try PackageFile.save(package, to: path(longest))
    #expect(try contents(longest) == saved)
    try expectSaveFails(String(repeating: "n", count: 256), reason: "the name is too long")
    try expectSaveFails("x/", reason: "a file name cannot end with /")
    try expectSaveFails("missing/p.json", reason: "the directory does not exist")
    #expect(throws: PackageFileError.unwritable(path: "", reason: "the file name is empty")) {
      try PackageFile.save(package, to: "")
    }
    try write("old", to: "p.json")
    try expectSaveFails("p.json/x", reason: "a part of the path is not a directory")
  }

  @Test("duplicate keys, deep nesting and huge files are refused with a specific error")
  func hostileDocuments() throws {
    try write(#"{"format": 1, "format": 1}"#, to: "dup.json")
    #expect(throws: PackageFileError.duplicateKey(path: path("dup.json"), field: "format")) {
      try PackageFile.read(path("dup.json"))
    }
    try write(
      #"{"format": 1, "recipient": {"firstName": "A", "first\u004eame": "B"}}"#, to: "escaped.json")
    #expect(
      throws: PackageFileError.duplicateKey(
        path: path("escaped.json"), field: "recipient.firstName")
    ) {
      try PackageFile.read(path("escaped.json"))
    }
    try write(String(repeating: "[", count: 100_000), to: "deep.json")
    #expect(
      throws: PackageFileError.notJSON(
        path: path("deep.json"), reason: "nested more than 64 levels deep")
    ) {
      try PackageFile.read(path("deep.json"))
    }
    #expect(truncate(path("deep.json"), 65 << 20) == 0)
    #expect(
      throws: PackageFileError.unreadable(
        path: path("deep.json"), reason: "it is too large (a package file has at most 16 MiB)")
    ) {
      try PackageFile.read(path("deep.json"))
    }
  }

  @Test("a writable file in a directory where no file can be made is rewritten in place")
  func unwritableDirectory() async {
    await #expect(processExitsWith: .success) {
      // A fixed name, so that a run removes what the last one left (nobody cannot remove it).
      let directory = NSTemporaryDirectory() + "/package-editor-locked-directory-test"
      try? FileManager.default.removeItem(atPath: directory)
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      let file = directory + "/p.json"
      try Data("old".utf8).write(to: URL(fileURLWithPath: file))
      if getuid() == 0 {
        // Root writes anywhere: become nobody, who owns the file but not the directory.
        guard chown(file, 65534, 65534) == 0, chmod(directory, 0o755) == 0, setgid(65534) == 0,
          setuid(65534) == 0
        else { exit(2) }
      } else {
        guard chmod(directory, 0o555) == 0 else { exit(2) }
      }
      let package = Package.sample()
      guard (try? PackageFile.save(package, to: file)) != nil else { exit(3) }
      guard try PackageFile.read(file) == PackageDocument(package),
        try FileManager.default.contentsOfDirectory(atPath: directory) == ["p.json"]
      else { exit(4) }
    }
  }

  @Test(
    "a full disk (a file-size limit) fails the save and leaves the old file and no temporary file")
  func fullDisk() async {
    await #expect(processExitsWith: .success) {
      let directory = NSTemporaryDirectory() + "/full-disk-\(getpid())"
      try? FileManager.default.removeItem(atPath: directory)
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(atPath: directory) }
      let file = directory + "/p.json"
      try Data("old".utf8).write(to: URL(fileURLWithPath: file))
      signal(SIGXFSZ, SIG_IGN)
      var limit = rlimit(rlim_cur: 100, rlim_max: 100)
      guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0 else { exit(2) }
      let package = Package.sample()
      do {
        try PackageFile.save(package, to: file)
        exit(3)
      } catch {
        guard
          error as? PackageFileError
            == .unwritable(path: file, reason: "the file would pass the size limit")
        else { exit(4) }
      }
      guard try String(contentsOfFile: file, encoding: .utf8) == "old",
        try FileManager.default.contentsOfDirectory(atPath: directory) == ["p.json"],
        package.summary == Package.sample().summary
      else { exit(5) }
    }
  }
}
