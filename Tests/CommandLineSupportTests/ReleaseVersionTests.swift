import CommandLineSupport
import Foundation
import Testing

/// The version is written once in the code (``CommandLineTool/version``, which every
/// executable's `--version` prints), and the documents that name it agree: the CHANGELOG's
/// latest release and the README's installation snippet.
@Suite("Release: one version")
struct ReleaseVersionTests {
  /// The package's root directory, found from this file's place in it.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func text(of file: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
  }

  @Test("the CHANGELOG's latest release is the version, with its date")
  func changelog() throws {
    let headings = try Self.text(of: "CHANGELOG.md").split(separator: "\n")
      .filter { $0.hasPrefix("## ") }
    let release = try #require(
      headings.first { $0.first(where: \.isNumber) != nil && $0.contains(" - ") })
    #expect(release.wholeMatch(of: #/## \d+\.\d+\.\d+ - \d{4}-\d{2}-\d{2}/#) != nil)
    #expect(release.hasPrefix("## \(CommandLineTool.version) - "))
    // Nothing is above it but the section for what is not released yet.
    #expect(headings.prefix { $0 != release } == ["## Unreleased"])
  }

  @Test("the README's installation snippet depends on the version")
  func readme() throws {
    let readme = try Self.text(of: "README.md")
    let dependency =
      #".package(url: "https://github.com/example/KVOLite.git", from: "\#(CommandLineTool.version)")"#
    #expect(readme.contains(dependency))
    #expect(!readme.contains(#"branch: "main""#))
  }
}
