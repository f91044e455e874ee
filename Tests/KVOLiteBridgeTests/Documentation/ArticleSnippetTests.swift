import Foundation
import KVOLiteBridge
import KVOLiteTestSupport
import Testing

/// Keeps the documentation's code true: every ```swift block of the README and of every DocC
/// article must appear, line for line (indentation and blank lines aside), in one of the test
/// sources, where it compiles and runs. A block that shows Apple's API for comparison starts
/// with `// Apple's` and is exempt; the README's package manifest (it starts with
/// `// swift-tools-version`) is evaluated by SwiftPM instead.
@Suite("DocC articles' code")
struct ArticleSnippetTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The README and every article of every module's catalog.
  static func documents() throws -> [URL] {
    let sources = root.appendingPathComponent("Sources")
    let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
    var documents = [root.appendingPathComponent("README.md")]
    for module in modules {
      let catalog = "Sources/\(module)/\(module).docc"
      guard FileManager.default.fileExists(atPath: root.appendingPathComponent(catalog).path)
      else { continue }
      documents += try files(under: catalog, ending: ".md")
    }
    return documents
  }

  /// Whether a block is exempt from being found in a test: Apple's code, or a manifest.
  static func isExempt(_ lines: [String]) -> Bool {
    lines.first.map { $0.hasPrefix("// Apple's") || $0.hasPrefix("// swift-tools-version") }
      ?? true
  }

  /// Lines without indentation, blank lines dropped.
  static func normalized(_ text: some StringProtocol) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }

  /// The ```swift blocks of a Markdown text.
  static func swiftBlocks(of markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if current == nil, trimmed == "```swift" {
        current = []
      } else if current != nil, trimmed == "```" {
        blocks.append(current!.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  static func files(under directory: String, ending suffix: String) throws -> [URL] {
    let base = root.appendingPathComponent(directory)
    let paths = try FileManager.default.subpathsOfDirectory(atPath: base.path)
    return paths.filter { $0.hasSuffix(suffix) }.sorted().map { base.appendingPathComponent($0) }
  }

  @Test("the block finder sees every swift block and nothing else")
  func blockFinder() {
    let markdown = "text\n```swift\nlet a = 1\n\n  a\n```\n```sh\nls\n```\n```swift\nb()\n```\n"
    #expect(Self.swiftBlocks(of: markdown) == ["let a = 1\n\n  a", "b()"])
    #expect(Self.normalized("  a\n\n\tb \n") == ["a", "b"])
  }

  @Test("every article's Swift code is compiled and run by a test")
  func everyBlockIsTested() throws {
    let sources = try Self.files(under: "Tests", ending: ".swift").map {
      Self.normalized(try String(contentsOf: $0, encoding: .utf8))
    }
    var checked: Set<String> = []
    for document in try Self.documents() {
      for block in Self.swiftBlocks(of: try String(contentsOf: document, encoding: .utf8)) {
        let lines = Self.normalized(block)
        if Self.isExempt(lines) { continue }
        checked.insert(document.lastPathComponent)
        let found = sources.contains { source in
          source.indices.contains { start in source[start...].starts(with: lines) }
        }
        #expect(found, "\(document.lastPathComponent): a Swift block no test holds:\n\(block)")
      }
    }
    // The README and the articles of every catalog with code were read.
    #expect(
      checked.isSuperset(of: [
        "README.md", "GettingStarted.md", "KVOLiteBridge.md", "PortingFromFoundationAndCombine.md",
      ]))
  }

  @Test("the README's package manifest is one SwiftPM accepts")
  func readmeManifest() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let manifests = Self.swiftBlocks(of: readme).filter {
      Self.normalized($0).first?.hasPrefix("// swift-tools-version") == true
    }
    try #require(manifests.count == 1)
    let directory = TemporaryDirectory()
    let sources = URL(fileURLWithPath: directory.file("Sources/MyApp"))
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    try Data("print(1)\n".utf8).write(to: sources.appendingPathComponent("main.swift"))
    try Data(manifests[0].utf8).write(to: URL(fileURLWithPath: directory.file("Package.swift")))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "package", "dump-package", "--package-path", directory.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("\"KVOLiteBridge\""))
    #expect(text.contains("\"main\""))
  }
}
