import PackageModel
import Testing

@Suite("Package contents and summary")
struct PackageContentTests {
  @Test(
    "invalid contents are errors naming the field",
    arguments: [
      ("", 1, 0.0, PackageError.emptyTitle),
      ("  ", 1, 0.0, .emptyTitle),
      ("Mug", 0, 0.0, .quantityTooSmall(0)),
      ("Mug", 1, -1.0, .invalidWeight(-1)),
      ("Mug", 1, Double.infinity, .invalidWeight(.infinity)),
    ])
  func invalid(title: String, quantity: Int, weight: Double, expected: PackageError) {
    #expect(throws: expected) { _ = try PackageContent(title: title, quantity: quantity, weight: weight) }
  }

  @Test("NaN weights are rejected")
  func nan() {
    #expect(throws: PackageError.self) { _ = try PackageContent(title: "Mug", weight: .nan) }
  }

  @Test("the sample package's summary")
  func sampleSummary() {
    #expect(
      Package.sample().summary == "Ann Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug")
  }

  @Test("an empty package's summary")
  func emptySummary() {
    #expect(Package().summary == "(no name) · from (no name) · no items")
  }

  @Test("one item, one piece, awkward weights")
  func singular() throws {
    let package = Package(recipient: Person(lastName: "Lee"), contents: [try PackageContent(title: "Lamp", weight: 0.125)])
    #expect(package.summary == "Lee · from (no name) · 1 item (1 pc, 0.125 kg): Lamp")
    package.contents = [try PackageContent(title: "Bricks", quantity: 3, weight: 0.3333)]
    #expect(package.summary == "Lee · from (no name) · 1 item (3 pcs, 1 kg): Bricks ×3")
  }

  @Test("a long list names the first five lines and counts the rest; the view model agrees")
  func longList() throws {
    let package = Package()
    let viewModel = PackageViewModel(package: package)
    for index in 1...7 { try viewModel.addContent(title: "I\(index)", quantity: index, weight: 0.1) }
    let expected =
      "(no name) · from (no name) · 7 items (28 pcs, 2.8 kg): I1, I2 ×2, I3 ×3, I4 ×4, I5 ×5, +2 more"
    #expect(package.summary == expected)
    #expect(viewModel.summary == expected)
    try viewModel.removeContent(at: 6)
    try viewModel.removeContent(at: 5)
    package.contents = Array(package.contents.prefix(1))
    #expect(viewModel.summary == "(no name) · from (no name) · 1 item (1 pc, 0.1 kg): I1")
  }

  @Test("contents are readable by key-value coding, with operators")
  func kvc() throws {
    let package = Package.sample()
    #expect(try package.value(forKeyPath: "contents.0.title") as? String == "Books")
    #expect(try package.value(forKeyPath: "contents.@sum.quantity") as? Int == 3)
    #expect(try package.value(forKeyPath: "recipient.fullName") as? String == "Ann Smith")
  }
}
