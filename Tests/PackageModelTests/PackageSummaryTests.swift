import KVOLiteTestSupport
import PackageModel
import Testing

/// The summary line's text, written part by part into one buffer.
@Suite("PackageSummary text")
struct PackageSummaryTests {
  private func summary(
    recipient: String = "Ann Smith", street: String = "1 Main St", sender: String = "Bob",
    _ contents: [(String, Int, Double)]
  ) throws -> String {
    let items = try contents.map { try PackageContent(title: $0.0, quantity: $0.1, weight: $0.2) }
    return PackageSummary(
      recipient: recipient, street: street, sender: sender,
      totals: PackageSummary.Totals(items), firstItems: items
    ).text
  }

  @Test(
    "weights read in kilograms without trailing zeros",
    arguments: [
      (0.0, "0"), (0.001, "0.001"), (0.01, "0.01"), (0.1, "0.1"), (0.25, "0.25"), (1, "1"),
      (2.05, "2.05"), (1234.567, "1234.567"), (1_000_000, "1000000"),
    ])
  func weights(kilograms: Double, text: String) throws {
    #expect(
      try summary([("Box", 1, kilograms)])
        == "Ann Smith, 1 Main St · from Bob · 1 item (1 pc, \(text) kg): Box")
  }

  @Test("counts, quantities, the first five lines and how many more")
  func lines() throws {
    let seven = (1...7).map { ("Item \($0)", $0, 0.5) }
    #expect(
      try summary(seven)
        == "Ann Smith, 1 Main St · from Bob · 7 items (28 pcs, 14 kg): Item 1, Item 2 ×2, "
        + "Item 3 ×3, Item 4 ×4, Item 5 ×5, +2 more")
    #expect(
      try summary([("Mug", 1_000_000, 1_000_000)])
        == "Ann Smith, 1 Main St · from Bob · 1 item (1000000 pcs, 1000000000000 kg): "
        + "Mug ×1000000")
  }

  @Test("missing names read (no name); a missing street is left out; no contents, no items")
  func empty() throws {
    #expect(
      try summary(recipient: "", street: "", sender: "", [])
        == "(no name) · from (no name) · no items")
    #expect(
      try summary(recipient: "Zoë ☃", street: "", sender: "Bob", [])
        == "Zoë ☃ · from Bob · no items")
  }
}
