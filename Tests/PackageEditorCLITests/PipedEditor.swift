import Foundation
import KVOLiteTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `package-editor` with standard input, output and error on pipes, started as a
/// shell starts a program (no signal blocked, `SIGPIPE` at its default even when the test
/// process ignores it), for tests of what the editor does when the reader of its output goes
/// away (`package-editor | head -1`).
final class PipedEditor {
  private var pid: pid_t = 0
  /// The test's ends: standard input's write end, standard output's and error's read ends.
  private var input: Int32 = -1
  private var output: Int32 = -1
  private var errors: Int32 = -1
  /// Everything read from standard output so far.
  private(set) var stdout = ""

  /// `pipe2(_, O_CLOEXEC)`, which the C library's module does not export: the ends are never
  /// inherited by a process another test spawns meanwhile (a reader kept alive elsewhere would
  /// hide the broken pipe).
  private static let pipe2 = unsafeBitCast(
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2"),
    to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)

  /// Starts the editor with `arguments` and `environment` in `directory`.
  init(arguments: [String], environment: [String: String], directory: String) throws {
    // A line typed after the editor exited must not end the test process.
    signal(SIGPIPE, SIG_IGN)
    var ends = [[Int32]](repeating: [-1, -1], count: 3)
    for index in ends.indices {
      guard Self.pipe2(&ends[index], O_CLOEXEC) == 0 else { throw POSIXError(.EMFILE) }
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[0][0], 0)
    posix_spawn_file_actions_adddup2(&actions, ends[1][1], 1)
    posix_spawn_file_actions_adddup2(&actions, ends[2][1], 2)
    let argv =
      (["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory, PseudoTerminal.editorPath]
      + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
    close(ends[0][0])
    close(ends[1][1])
    close(ends[2][1])
    (input, output, errors) = (ends[0][1], ends[1][0], ends[2][0])
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
  }

  deinit {
    if pid > 0, kill(pid, 0) == 0 {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
    for descriptor in [input, output, errors] where descriptor >= 0 { close(descriptor) }
  }

  /// Writes `text` to the editor's standard input.
  func type(_ text: String) {
    var bytes = Array(text.utf8)
    _ = write(input, &bytes, bytes.count)
  }

  /// Reads standard output until it holds `text` after what was read before this call, for at
  /// most `seconds`; returns whether it did. (Waiting is on the output, not on a clock.)
  func waitFor(_ text: String, seconds: Double = 10) -> Bool {
    let start = stdout.endIndex
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline, output >= 0 {
      if stdout[start...].contains(text) { return true }
      var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 100) >= 0 else { return false }
      guard descriptor.revents != 0 else { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = read(output, &buffer, buffer.count)
      if count <= 0 { break }
      stdout += String(decoding: buffer[..<count], as: UTF8.self)
    }
    return stdout[start...].contains(text)
  }

  /// The reader of standard output goes away: its end of the pipe is closed.
  func closeOutput() {
    close(output)
    output = -1
  }

  /// Closes standard input and waits for the editor to exit; its status as a shell reports it
  /// (128 + the signal's number for a signal; `nil` if it still runs after `seconds`), and all
  /// it wrote to standard error.
  func finish(seconds: Double = 20) -> (status: Int32?, stderr: String) {
    close(input)
    input = -1
    var collected: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let deadline = Date().addingTimeInterval(seconds)
    var ended = false
    while !ended, Date() < deadline {
      var descriptor = pollfd(fd: errors, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 100) >= 0 else { break }
      guard descriptor.revents != 0 else { continue }
      let count = read(errors, &buffer, buffer.count)
      if count <= 0 { ended = true } else { collected += buffer[..<count] }
    }
    let stderr = String(decoding: collected, as: UTF8.self)
    // Standard error ends when the editor exits; an editor that has not by then has hung.
    if !ended { kill(pid, SIGKILL) }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    pid = 0
    guard ended else { return (nil, stderr) }
    let signal = status & 0x7F
    return (signal == 0 ? (status >> 8) & 0xFF : 128 + signal, stderr)
  }
}
