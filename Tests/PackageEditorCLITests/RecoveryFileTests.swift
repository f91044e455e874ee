import Foundation
import KVOLiteTestSupport
import PackageModel
import Testing

@testable import PackageEditorCLI

/// Recovery files are private and exclusive: a shared or planted state directory never makes
/// the editor write through another user's link, and two recoveries never share a file.
@Suite("Recovery files", .serialized)
struct RecoveryFileTests {
  /// Starts an editor at a terminal with `XDG_STATE_HOME` = `state`, makes a change, and hangs
  /// it up once `prepare` (given the editor's process identifier) has run. Returns the screen.
  static func hangUp(
    state: String, home: String, prepare: (pid_t) throws -> Void = { _ in }
  ) throws -> String {
    let terminal = try PseudoTerminal(
      arguments: [],
      environment: [
        "TERM": "xterm", "HOME": home, "XDG_STATE_HOME": state, "PACKAGE_EDITOR_HISTORY": "off",
        "TMPDIR": home,
      ])
    #expect(terminal.waitFor("package> "))
    let mark = terminal.mark
    terminal.type("set recipient.firstName Zed\r")
    #expect(terminal.waitFor("summary: Zed", after: mark, thenPrompt: "package*> "))
    try prepare(terminal.processIdentifier)
    terminal.send(SIGHUP)
    #expect(terminal.exitStatus() == 129)
    return terminal.screen
  }

  /// The names a recovery file of `pid` may take in the next minute.
  static func plantedNames(_ pid: pid_t) -> [String] {
    let now = Int(Date().timeIntervalSince1970)
    return (now - 1...now + 60).map { "recovered-\($0)-\(pid).json" }
  }

  /// The path of the recovery file the editor named on `screen`.
  static func recoveredPath(_ screen: String) -> String? {
    guard let range = screen.range(of: "the unsaved changes are saved in ") else { return nil }
    return String(screen[range.upperBound...].prefix { $0 != ";" })
  }

  @Test("a state directory of the user's that others can enter is made private; the file is 0600")
  func looseDirectoryIsTightened() throws {
    let directory = TemporaryDirectory()
    let state = directory.file("state")
    #expect(mkdir(state, 0o777) == 0 && chmod(state, 0o777) == 0)
    #expect(mkdir(state + "/package-editor", 0o777) == 0)
    #expect(chmod(state + "/package-editor", 0o777) == 0)
    let screen = try Self.hangUp(state: state, home: directory.path)
    let path = try #require(Self.recoveredPath(screen))
    #expect(path.hasPrefix(state + "/package-editor/recovered-"))
    var info = stat()
    #expect(stat(state + "/package-editor", &info) == 0 && info.st_mode & 0o777 == 0o700)
    #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    #expect(try PackageFile.read(path).recipient.firstName == "Zed")
  }

  @Test("names taken by planted links or by another recovery are skipped, never written through")
  func takenNamesAreSkipped() throws {
    let directory = TemporaryDirectory()
    let state = directory.file("state")
    let secret = directory.file("secret")
    try Data("secret".utf8).write(to: URL(fileURLWithPath: secret))
    let screen = try Self.hangUp(state: state, home: directory.path) { pid in
      let folder = state + "/package-editor"
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      for (index, name) in Self.plantedNames(pid).enumerated() {
        // Every other name a link to a secret, the others another editor's recovery.
        if index % 2 == 0 {
          #expect(symlink(secret, folder + "/" + name) == 0)
        } else {
          try Data("other".utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
      }
    }
    let path = try #require(Self.recoveredPath(screen))
    #expect(path.hasSuffix("-2.json"))
    #expect(try PackageFile.read(path).recipient.firstName == "Zed")
    #expect(FileManager.default.contents(atPath: secret) == Data("secret".utf8))
  }

  @Test(
    "a shared state directory another user made, with a planted link: refused, and the changes go to a new private directory",
    .enabled(if: getuid() == 0, "needs root to make a directory another user owns"))
  func anotherUsersDirectoryIsRefused() throws {
    let directory = TemporaryDirectory()
    let state = directory.file("shared")
    #expect(mkdir(state, 0o777) == 0 && chmod(state, 0o1777) == 0)
    let folder = state + "/package-editor"
    #expect(mkdir(folder, 0o777) == 0 && chmod(folder, 0o777) == 0)
    #expect(chown(folder, 65534, 65534) == 0)
    let secret = directory.file("root-only")
    try Data("secret".utf8).write(to: URL(fileURLWithPath: secret))
    #expect(chmod(secret, 0o600) == 0)
    let screen = try Self.hangUp(state: state, home: directory.path) { pid in
      for name in Self.plantedNames(pid) {
        #expect(symlink(secret, folder + "/" + name) == 0)
        #expect(lchown(folder + "/" + name, 65534, 65534) == 0)
      }
    }
    #expect(
      screen.contains(
        "warning: hang-up: not using the state directory: \(folder) belongs to another user"))
    let path = try #require(Self.recoveredPath(screen))
    #expect(path.hasPrefix(directory.path + "/package-editor-"))
    #expect(try PackageFile.read(path).recipient.firstName == "Zed")
    #expect(FileManager.default.contents(atPath: secret) == Data("secret".utf8))
  }
}
