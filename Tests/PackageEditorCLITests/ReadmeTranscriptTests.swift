import Foundation
import KVOLiteTestSupport
import Testing

@testable import PackageEditorCLI

/// Every output line in the order it is printed, standard output and error together, as a
/// terminal shows them.
private final class InterleavedOutput: EditorOutput {
  var lines: [String] = []
  func line(_ text: String) { lines.append(text) }
  func watch(_ text: String) { lines.append(text) }
  func summary(_ text: String) { lines.append(text) }
  func error(_ message: String) { lines.append("error: " + message) }
  func error(_ message: String, at location: String) {
    lines.append(location + ": error: " + message)
  }
  func warning(_ message: String) { lines.append("warning: " + message) }
}

/// The README's first transcript of the editor is what the editor prints, prompts included.
@Suite("README transcript")
struct ReadmeTranscriptTests {
  /// The README, found from this file's place in the package.
  static var readme: String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8))
      ?? ""
  }

  @Test("the package editor's transcript in the README is what the editor prints")
  func transcriptMatches() throws {
    let readme = Self.readme
    let start = try #require(readme.range(of: "```text\n$ swift run package-editor\n"))
    let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
    let shown = readme[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    // The commands are what follows a prompt: `package> `, `package*> `, `package x.json> `.
    let prompt = #/^package( [^>]+?)?\*?> /#
    // The README saves to /tmp/package.json; the test saves package.json in a temporary
    // directory instead, and reads its own output back under the README's name.
    let readmeFile = "/tmp/package.json"
    let commands = shown.compactMap { line in
      (try? prompt.prefixMatch(in: line)).map {
        String(line[$0.range.upperBound...]).replacing(readmeFile, with: "package.json")
      }
    }
    let output = InterleavedOutput()
    let directory = TemporaryDirectory()
    var next = 0
    _ = Editor.run(
      options: EditorOptions(), interactive: true, source: ScriptSource(commands), output: output,
      directory: directory.path,
      prompt: { text in
        guard next < commands.count else { return }
        output.lines.append(text + commands[next])
        next += 1
      })
    let asInReadme = output.lines.map { line in
      line.replacing(#/(^| )package\.json/#) { $0.output.1 + readmeFile }
    }
    #expect(asInReadme == shown)
    #expect(FileManager.default.fileExists(atPath: directory.file("package.json")))
  }
}
