import KVOLiteTestSupport
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
      ("Mug", Int.min, 0.0, .quantityTooSmall(Int.min)),
      ("Mug", PackageContent.maximumQuantity + 1, 0.0, .quantityTooLarge(1_000_001)),
      ("Mug", Int.max, 0.0, .quantityTooLarge(Int.max)),
      ("Mug", 1, 1e19, .invalidWeight(1e19)),
      ("Mug", 1, 1e308, .invalidWeight(1e308)),
      ("Mug", 1, -Double.infinity, .invalidWeight(-.infinity)),
      ("Mug", 1, PackageContent.maximumWeight + 0.001, .invalidWeight(1_000_000.001)),
      ("Mug", 1, 0.3333, .weightNotWholeGrams(0.3333)),
      ("Mug", 1, 0.0005, .weightNotWholeGrams(0.0005)),
      ("Mug", 1, Double.leastNonzeroMagnitude, .weightNotWholeGrams(.leastNonzeroMagnitude)),
    ])
  func invalid(title: String, quantity: Int, weight: Double, expected: PackageError) {
    #expect(throws: expected) {
      _ = try PackageContent(title: title, quantity: quantity, weight: weight)
    }
  }

  @Test("the bounds themselves are accepted; -0 is 0; decimal weights are exact grams")
  func bounds() throws {
    let heaviest = try PackageContent(
      title: "Ore", quantity: PackageContent.maximumQuantity, weight: PackageContent.maximumWeight)
    #expect(heaviest.totalGrams == 1_000_000_000_000_000)
    let zero = try PackageContent(title: "Air", weight: -0.0)
    #expect(zero.grams == 0 && zero.weight.sign == .plus)
    #expect(try PackageContent(title: "Pin", weight: 0.001).grams == 1)
    #expect(try PackageContent(title: "Mug", weight: 0.1).grams == 100)
    #expect(try PackageContent(title: "Mug", weight: 1.015).grams == 1015)
  }

  @Test("totals stay exact after any sequence of adds and removes (no floating-point drift)")
  func exactTotals() throws {
    let package = Package.sample()
    let viewModel = PackageViewModel(package: package)
    let sample = viewModel.summary
    try viewModel.addContent(title: "X", quantity: 1, weight: 100_000)
    try viewModel.addContent(title: "Y", quantity: 7, weight: 0.1)
    try viewModel.addContent(title: "Z", quantity: 3, weight: 0.001)
    for _ in 0..<3 { try viewModel.removeContent(at: 2) }
    #expect(viewModel.summary == sample)
    #expect(package.summary == sample)
    var random = SeededGenerator(seed: 7)
    for _ in 0..<2_000 {
      if package.contents.count > 2, Bool.random(using: &random) {
        try viewModel.removeContent(at: Int.random(in: 2..<package.contents.count, using: &random))
      } else {
        let grams = Int.random(in: 0...1_000_000_000, using: &random)
        try viewModel.addContent(
          title: "W", quantity: Int.random(in: 1...1000, using: &random),
          weight: Double(grams) / 1000)
      }
      #expect(viewModel.summary == package.summary)
    }
    while package.contents.count > 2 { try viewModel.removeContent(at: 2) }
    #expect(viewModel.summary == sample)
  }

  @Test(
    "an add or insert that would take the totals past their limits is refused, changing nothing")
  func totalsLimit() throws {
    let package = Package()
    let viewModel = PackageViewModel(package: package)
    let max = (PackageContent.maximumQuantity, PackageContent.maximumWeight)
    try viewModel.addContent(title: "Ore", quantity: max.0, weight: max.1)
    let summary = viewModel.summary
    #expect(
      summary == "(no name) · from (no name) · 1 item (1000000 pcs, 1000000000000 kg): Ore ×1000000"
    )
    #expect(throws: PackageError.totalsTooLarge) {
      try viewModel.addContent(title: "Pin", weight: 0.001)
    }
    #expect(throws: PackageError.totalsTooLarge) {
      try viewModel.insertContent(try PackageContent(title: "Pin", weight: 0.001), at: 0)
    }
    try viewModel.addContent(title: "Air")
    #expect(package.contents.count == 2)
    #expect(
      PackageSummary.Totals.checked(package.contents)?.grams == PackageSummary.Totals.maximumGrams)
  }

  @Test("contents set directly past the limits are counted up to them, never crashing")
  func directContentsPastLimits() throws {
    let ore = try PackageContent(
      title: "Ore", quantity: PackageContent.maximumQuantity, weight: PackageContent.maximumWeight)
    let package = Package(contents: Array(repeating: ore, count: 10_000))
    let viewModel = PackageViewModel(package: package)
    #expect(PackageSummary.Totals.checked(package.contents) == nil)
    #expect(viewModel.summary.contains("(10000000000 pcs, 1000000000000 kg)"))
    #expect(throws: PackageError.totalsTooLarge) { try viewModel.addContent(title: "Pin") }
    try viewModel.removeContent(at: 0)
    #expect(viewModel.summary == package.summary)
  }

  @Test("NaN weights are rejected")
  func nan() {
    #expect(throws: PackageError.self) { _ = try PackageContent(title: "Mug", weight: .nan) }
  }

  @Test("the sample package's summary")
  func sampleSummary() {
    #expect(
      Package.sample().summary
        == "Ann Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug")
  }

  @Test("an empty package's summary")
  func emptySummary() {
    #expect(Package().summary == "(no name) · from (no name) · no items")
  }

  @Test("one item, one piece, awkward weights")
  func singular() throws {
    let package = Package(
      recipient: Person(lastName: "Lee"),
      contents: [try PackageContent(title: "Lamp", weight: 0.125)])
    #expect(package.summary == "Lee · from (no name) · 1 item (1 pc, 0.125 kg): Lamp")
    package.contents = [try PackageContent(title: "Bricks", quantity: 3, weight: 0.333)]
    #expect(package.summary == "Lee · from (no name) · 1 item (3 pcs, 0.999 kg): Bricks ×3")
  }

  @Test("a long list names the first five lines and counts the rest; the view model agrees")
  func longList() throws {
    let package = Package()
    let viewModel = PackageViewModel(package: package)
    for index in 1...7 {
      try viewModel.addContent(title: "I\(index)", quantity: index, weight: 0.1)
    }
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
