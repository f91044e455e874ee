import Foundation
import KVOLiteTestSupport
import Testing

/// CI's lint of concurrency forms (`Scripts/check-concurrency-forms`), run on small trees made
/// in a temporary directory: it rejects a `Mutex` and a thread identity outside
/// `ThreadIdentity`, and accepts the same forms where they are allowed.
@Suite("Concurrency forms lint")
struct ConcurrencyFormsLintTests {
  /// The script, in this checkout.
  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Scripts/check-concurrency-forms").path

  /// Runs the lint on a tree holding `files` (paths and contents).
  static func lint(_ files: [String: String]) throws -> ExecutableProcess.Result {
    let root = TemporaryDirectory()
    for (path, text) in files {
      let url = URL(fileURLWithPath: root.file(path))
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [script, root.path]
    let (stdout, stderr) = (Pipe(), Pipe())
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    return ExecutableProcess.collect(process, stdout: stdout, stderr: stderr)
  }

  @Test("a Mutex in a library module fails the lint, named with its line")
  func mutexFails() throws {
    let result = try Self.lint([
      "Sources/KVOLite/Registry.swift": "import Synchronization\nlet table = Mutex<[Int]>([])\n"
    ])
    #expect(
      result
        == .init(
          stdout: "",
          stderr: "Sources/KVOLite/Registry.swift:2:let table = Mutex<[Int]>([])\n"
            + "check-concurrency-forms: Synchronization.Mutex or a thread identity outside "
            + "ThreadIdentity (use Lock, and ThreadIdentity.current)\n",
          status: 1))
  }

  @Test("pthread_self outside ThreadIdentity fails the lint")
  func threadIdentityFails() throws {
    let result = try Self.lint([
      "Sources/KVOLiteCombine/Owner.swift": "let me = pthread_self()\n"
    ])
    #expect(result.status == 1)
    #expect(
      result.stderr.hasPrefix("Sources/KVOLiteCombine/Owner.swift:1:let me = pthread_self()\n"))
  }

  @Test("the forms in ThreadIdentity, in doc comments and in the harnesses pass")
  func allowedPlacesPass() throws {
    let result = try Self.lint([
      "Sources/KVOLiteLocking/ThreadIdentity.swift": "let me = pthread_self()\n",
      "Sources/KVOLite/Notes.swift": "/// Not `Mutex<Int>`: it is not seen by the sanitizer.\n",
      "Sources/KVOLiteStress/Tally.swift": "let tally = Mutex<Int>(0)\n",
    ])
    #expect(
      result
        == .init(
          stdout: "check-concurrency-forms: no Mutex, no thread identity outside ThreadIdentity\n",
          stderr: "", status: 0))
  }
}
