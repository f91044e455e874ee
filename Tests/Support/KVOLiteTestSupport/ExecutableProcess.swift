import Foundation

/// Runs one of the package's built executables (`kvolite-stress`, `kvolite-benchmarks`) as a
/// process, for tests of what only a process shows: its exit status and its whole standard
/// output and error. The executable is found beside the test bundle, where `swift build
/// --build-tests` and `swift test` put every product of the package.
public enum ExecutableProcess {
  /// What a run printed, and how it ended.
  public struct Result: Equatable, Sendable {
    /// Everything written to standard output.
    public var stdout: String
    /// Everything written to standard error.
    public var stderr: String
    /// The exit status, or 128 plus the signal that ended the process.
    public var status: Int32

    /// A run's outputs and status, as a test expects them.
    public init(stdout: String, stderr: String, status: Int32) {
      self.stdout = stdout
      self.stderr = stderr
      self.status = status
    }
  }

  /// The path of the executable `name` built with the tests (it may not exist: then running it
  /// throws).
  public static func path(of name: String) -> String {
    let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [here, here.deletingLastPathComponent()].map {
      $0.appendingPathComponent(name).path
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
  }

  /// Runs the executable `name` with `arguments`, with empty standard input and a temporary
  /// working directory, and waits for it to end. Safe to call from several tests at once.
  public static func run(_ name: String, _ arguments: [String]) throws -> Result {
    let directory = TemporaryDirectory()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path(of: name))
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path]
    let (stdout, stderr) = (Pipe(), Pipe())
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    return collect(process, stdout: stdout, stderr: stderr)
  }

  /// Reads the standard output and error of `process`, already running with `stdout` and
  /// `stderr` as its pipes, to their ends, waits for it to exit, and returns what it printed
  /// and its status.
  public static func collect(_ process: Process, stdout: Pipe, stderr: Pipe) -> Result {
    // Read both pipes at once, so that neither fills while the other is read.
    let group = DispatchGroup()
    nonisolated(unsafe) var errorBytes = Data()
    DispatchQueue.global().async(group: group) {
      errorBytes = stderr.fileHandleForReading.readDataToEndOfFile()
    }
    let outputBytes = stdout.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    let status =
      process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
    return Result(
      stdout: String(decoding: outputBytes, as: UTF8.self),
      stderr: String(decoding: errorBytes, as: UTF8.self), status: status)
  }
}
