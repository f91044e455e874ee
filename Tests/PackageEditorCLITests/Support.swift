import Foundation

@testable import PackageEditorCLI

/// Captures the editor's output: standard output and standard error, as the process would
/// print them.
final class CapturedOutput: EditorOutput {
  var stdout: [String] = []
  var stderr: [String] = []
  func line(_ text: String) { stdout.append(text) }
  func watch(_ text: String) { stdout.append(text) }
  func summary(_ text: String) { stdout.append(text) }
  func error(_ message: String) { stderr.append("error: " + message) }
  func warning(_ message: String) { stderr.append("warning: " + message) }
}

/// A fresh, empty directory under the system's temporary directory, removed (with what the
/// test left in it) when the value is released. Tests resolve every file name against one, so
/// that nothing is ever written into the source tree.
final class TemporaryDirectory {
  let path: String

  init() {
    var template = Array((NSTemporaryDirectory() + "/package-editor-tests-XXXXXX").utf8CString)
    path = template.withUnsafeMutableBufferPointer { buffer in
      guard let made = mkdtemp(buffer.baseAddress!) else {
        preconditionFailure("cannot create a temporary directory")
      }
      return String(cString: made)
    }
  }

  /// `name` inside the directory.
  func file(_ name: String) -> String { path + "/" + name }

  deinit {
    // Make everything removable (a test may leave a read-only file or directory), then remove.
    for subpath in (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? [] {
      chmod(file(subpath), 0o700)
    }
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// Runs a script through the editor in batch mode, with relative file names resolved against
/// `directory` (by default a fresh temporary one); returns the whole outputs and the status.
func transcript(
  _ script: String, options: EditorOptions = EditorOptions(), interactive: Bool = false,
  directory: TemporaryDirectory = TemporaryDirectory()
) -> (stdout: String, stderr: String, status: Int32) {
  let output = CapturedOutput()
  let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  let status = Editor.run(
    options: options, interactive: interactive, source: ScriptSource(lines), output: output,
    directory: directory.path)
  return (
    output.stdout.map { $0 + "\n" }.joined(), output.stderr.map { $0 + "\n" }.joined(), status
  )
}
