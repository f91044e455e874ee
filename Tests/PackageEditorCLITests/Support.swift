import Foundation
import KVOLiteTestSupport

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
  func error(_ message: String, at location: String) {
    stderr.append(location + ": error: " + message)
  }
  func warning(_ message: String) { stderr.append("warning: " + message) }
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
