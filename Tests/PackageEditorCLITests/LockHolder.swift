import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Another process that holds an exclusive `flock` on a file until released: `flock -x FILE
/// cat` (util-linux), run as the user `nobody` when asked (through `setpriv`), for tests of
/// what a second program, or a second user, can and cannot do to an editor.
final class LockHolder {
  /// `setpriv` and `flock`, where util-linux puts them.
  static let setpriv = "/usr/bin/setpriv"
  static let flock = "/usr/bin/flock"

  /// Whether the tests can act as a second user: they run as root, `nobody` exists, and
  /// util-linux's `setpriv` and `flock` are installed.
  static let canActAsNobody =
    geteuid() == 0 && getpwnam("nobody") != nil
    && FileManager.default.isExecutableFile(atPath: setpriv)
    && FileManager.default.isExecutableFile(atPath: flock)

  /// The arguments that run a program as `nobody` (user and group 65534, no other group).
  static let asNobody = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]

  private let process = Process()
  private let input = Pipe()
  /// Whether the lock is held (`false` if `flock` could not open or lock the file).
  private(set) var isHolding = false

  /// Starts `flock -x path cat` (as `nobody` if `asNobody`) and waits until it holds the lock.
  init(_ path: String, asNobody: Bool = false) throws {
    let command = (asNobody ? Self.asNobody : []) + [Self.flock, "-x", path, "/bin/cat"]
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    // `flock` that gave up has closed its input: writing it must not end the test process.
    signal(SIGPIPE, SIG_IGN)
    try process.run()
    // `cat` runs once the lock is held: a line it echoes says so; the end of its output says
    // that `flock` gave up.
    try? input.fileHandleForWriting.write(contentsOf: Data("held\n".utf8))
    var echoed = Data()
    while !echoed.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      echoed += chunk
    }
    isHolding = echoed == Data("held\n".utf8)
  }

  /// The holding process's identifier (`flock`'s, which took the lock).
  var processIdentifier: pid_t { process.processIdentifier }

  /// Lets go of the lock: `cat` ends with its input, and `flock` with it.
  func release() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }

  deinit {
    if process.isRunning { release() }
  }
}
