import Foundation
import Testing

@testable import KVOLiteStress

/// The written rule and its check: the Internals article lists every concurrent entry point
/// with the stress scenarios that race it, and those are exactly the scenarios that
/// `kvolite-stress` runs.
@Suite("Stress scenarios listed in the Internals article")
struct StressScenarioListTests {
  /// The article, read from the source tree (read only).
  static let article = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/KVOLite/KVOLite.docc/Internals.md")

  /// The scenario names of the list: in each list item of the section, the code spans after
  /// the " — " that ends the entry point.
  static func listedScenarios(in text: String) -> [String] {
    let heading = "### Every concurrent entry point, and its scenario"
    guard let start = text.range(of: heading) else { return [] }
    let section = text[start.upperBound...]
    var names: [String] = []
    for line in section.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("#") { break }
      guard line.hasPrefix("- "), let dash = line.range(of: " — ", options: .backwards) else {
        continue
      }
      let spans = line[dash.upperBound...].split(separator: "`", omittingEmptySubsequences: false)
      // Code spans are the odd-numbered pieces between backticks.
      names += spans.enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
    return names
  }

  @Test("every scenario named in the list exists, and every scenario is named in the list")
  func listMatchesScenarios() throws {
    let text = try String(contentsOf: Self.article, encoding: .utf8)
    let listed = Self.listedScenarios(in: text)
    let scenarios = StressScenarios.all.map(\.name)
    #expect(!listed.isEmpty)
    #expect(Set(listed).subtracting(scenarios).sorted() == [], "listed, but no such scenario")
    #expect(Set(scenarios).subtracting(listed).sorted() == [], "a scenario the list does not name")
    #expect(Set(scenarios).count == scenarios.count, "two scenarios have one name")
  }

  @Test("the check reads names only from the section's list items, after the dash")
  func parsing() {
    let text = """
      ## Other
      - `not this` — `nor this`
      ### Every concurrent entry point, and its scenario
      Prose with `code` is skipped.
      - `Entry.point()` with `options` — `first: a`, `second: b(c:)`
      - No dash here, `skipped`
      ## Next
      - `after` — `too late`
      """
    #expect(Self.listedScenarios(in: text) == ["first: a", "second: b(c:)"])
  }
}
