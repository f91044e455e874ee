import Foundation
import KVOLiteTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `package-editor` on a pseudo-terminal, for tests that type keys and read the
/// screen as a user would.
final class PseudoTerminal {
  private var master: Int32 = -1
  private var pid: pid_t = 0
  /// Everything the editor wrote so far.
  private(set) var screen = ""

  /// The `package-editor` built next to the test bundle.
  static var editorPath: String {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [here, here.deletingLastPathComponent()].map {
      $0.appendingPathComponent("package-editor").path
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
  }

  /// Starts the editor with `arguments` and `environment` on a new terminal 80 columns wide, in
  /// `directory` (by default the test's own).
  init(arguments: [String], environment: [String: String], directory: String? = nil) throws {
    var slave: Int32 = -1
    var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
    guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw POSIXError(.EIO) }
    defer { close(slave) }
    // Other tests spawn editors at the same time: they must not inherit this terminal.
    _ = fcntl(master, F_SETFD, FD_CLOEXEC)
    _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
    // The test runs on a worker thread that blocks signals; the editor starts as a shell
    // would start it: nothing blocked.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for target in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, slave, target) }
    posix_spawn_file_actions_addclose(&actions, master)
    // In another directory, a shell changes to it and then becomes the editor (same process).
    let program = directory == nil ? Self.editorPath : "/bin/sh"
    let start = directory.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0] } ?? []
    let argv = (start + [Self.editorPath] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    let result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
  }

  deinit {
    if pid > 0, kill(pid, 0) == 0 {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    close(master)
  }

  /// Types `text` (bytes as they are: `\u{1B}[A` is Up).
  func type(_ text: String) {
    var bytes = Array(text.utf8)
    _ = write(master, &bytes, bytes.count)
  }

  /// Reads until the screen, from `offset` on, contains `text`, for at most `seconds`; returns
  /// whether it did. (Waiting is on the terminal's output, not on a clock.)
  @discardableResult
  func waitFor(_ text: String, after offset: String.Index? = nil, seconds: Double = 10) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if screen[(offset ?? screen.startIndex)...].contains(text) { return true }
      var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 100) >= 0 else { return false }
      guard descriptor.revents & Int16(POLLIN) != 0 else {
        if descriptor.revents & Int16(POLLHUP) != 0 { break }
        continue
      }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = read(master, &buffer, buffer.count)
      if count <= 0 { break }
      screen += String(decoding: buffer[..<count], as: UTF8.self)
    }
    return screen[(offset ?? screen.startIndex)...].contains(text)
  }

  /// Waits for `text` after `offset`, then for the editor's prompt drawn after it: keys typed
  /// from then on are read by the line editor, not by the terminal's own line discipline.
  func waitFor(_ text: String, after offset: String.Index, thenPrompt prompt: String) -> Bool {
    guard waitFor(text, after: offset), let found = screen[offset...].range(of: text) else {
      return false
    }
    return waitFor(prompt, after: found.upperBound)
  }

  /// Resizes the terminal, and tells the editor the way a terminal emulator does (SIGWINCH).
  /// The editor is not in a session of its own, so the signal is sent to it directly.
  func resize(columns: UInt16, rows: UInt16) {
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    kill(pid, SIGWINCH)
  }

  /// Sends the editor `signal`, as a terminal that hangs up sends `SIGHUP`.
  func send(_ signal: Int32) {
    kill(pid, signal)
  }

  /// Waits for the editor to exit; its status, or `nil` if it is still running after `seconds`.
  func exitStatus(seconds: Double = 10) -> Int32? {
    let deadline = Date().addingTimeInterval(seconds)
    var status: Int32 = 0
    while Date() < deadline {
      waitFor("\u{0}", seconds: 0.1)  // drain output so that the editor is never blocked
      if waitpid(pid, &status, WNOHANG) == pid {
        pid = 0
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
      }
    }
    return nil
  }

  /// The editor's process identifier.
  var processIdentifier: pid_t { pid }

  /// A mark in the screen, to wait for text written after it.
  var mark: String.Index { screen.endIndex }
}
