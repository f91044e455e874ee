import Foundation
import KVOLiteTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the built `package-editor` as a process, for tests of what only a process shows: its
/// exit status, its standard output and error as bytes, signals and resource limits.
enum EditorProcess {
  typealias Result = ExecutableProcess.Result

  /// Runs the editor with `arguments` in `directory`, standard input from `input`, under a file
  /// size limit of `fileSizeLimit` blocks of 1,024 bytes if given (`ulimit -f`), with standard
  /// output to `stdoutPath` if given (then `stdout` is empty), and the shell redirections
  /// `redirections` (`<&-` closes standard input), as the user `nobody` if `asNobody` (see
  /// ``LockHolder/canActAsNobody``). An editor still running after `timeout` seconds is killed
  /// (its status is then 137), so that a hang fails the test instead of stopping the suite.
  static func run(
    _ arguments: [String], in directory: String, input: String = "",
    environment: [String: String] = [:], fileSizeLimit: Int? = nil, stdoutPath: String? = nil,
    redirections: String = "", asNobody: Bool = false, timeout: Double = 60
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    let limit = fileSizeLimit.map { "ulimit -f \($0); " } ?? ""
    let redirect = (stdoutPath.map { " > '\($0)'" } ?? "") + " " + redirections
    let user = asNobody ? LockHolder.asNobody.joined(separator: " ") + " " : ""
    process.arguments =
      ["-c", limit + "exec " + user + "\"$0\" \"$@\"" + redirect, PseudoTerminal.editorPath]
      + arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory].merging(environment) {
      $1
    }
    let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let watchdog = DispatchWorkItem {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    defer { watchdog.cancel() }
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    return ExecutableProcess.collect(process, stdout: stdout, stderr: stderr)
  }
}
