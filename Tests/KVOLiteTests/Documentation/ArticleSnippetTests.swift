import Foundation
import Testing

/// Keeps the DocC articles' code true: every ```swift block of every article must appear, line
/// for line (indentation and blank lines aside), in one of the test sources, where it compiles
/// and runs. A block that shows Apple's API for comparison starts with `// Apple's` and is
/// exempt.
@Suite("DocC articles' code")
struct ArticleSnippetTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let catalogs = ["Sources/KVOLite/KVOLite.docc", "Sources/PackageModel/PackageModel.docc"]

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
    var checked = 0
    for catalog in Self.catalogs {
      for article in try Self.files(under: catalog, ending: ".md") {
        for block in Self.swiftBlocks(of: try String(contentsOf: article, encoding: .utf8)) {
          let lines = Self.normalized(block)
          if lines.first?.hasPrefix("// Apple's") == true { continue }
          checked += 1
          let found = sources.contains { source in
            source.indices.contains { start in source[start...].starts(with: lines) }
          }
          #expect(found, "\(article.lastPathComponent): a Swift block no test holds:\n\(block)")
        }
      }
    }
    #expect(checked >= 10)
  }
}
