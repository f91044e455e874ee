import KVOLite
import Observation
import PackageModel
import Testing

/// The package's summary line followed through Swift Observation's `Observations`.
@Suite("Summary through Observations")
struct SummaryObservationTests {
  @Test(
    "Observations { package.summary } yields the line after an edit of the view model, a proxy insertion, a name set by key path and an undo"
  )
  func summaryLine() async throws {
    guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
      return
    }
    let package = Package.sample()
    let history = ChangeHistory(root: package)
    let viewModel = PackageViewModel(package: package)
    let lines = Observations { package.summary }
    var iterator = lines.makeAsyncIterator()
    var seen: [String?] = [await iterator.next()]
    viewModel.lastName = "Ray"
    seen.append(await iterator.next())
    package.mutableArrayValue(for: \.contents).append(
      try PackageContent(title: "Lamp", quantity: 1, weight: 2))
    seen.append(await iterator.next())
    try package.setValue("Bea", forKeyPath: "sender.firstName")
    seen.append(await iterator.next())
    #expect(history.undo())
    seen.append(await iterator.next())
    #expect(history.undo())
    seen.append(await iterator.next())
    #expect(
      seen == [
        "Ann Smith, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug",
        "Ann Ray, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug",
        "Ann Ray, 1 Main St · from Bob Jones · 3 items (4 pcs, 3.5 kg): Books ×2, Mug, Lamp",
        "Ann Ray, 1 Main St · from Bea Jones · 3 items (4 pcs, 3.5 kg): Books ×2, Mug, Lamp",
        "Ann Ray, 1 Main St · from Bob Jones · 3 items (4 pcs, 3.5 kg): Books ×2, Mug, Lamp",
        "Ann Ray, 1 Main St · from Bob Jones · 2 items (3 pcs, 1.5 kg): Books ×2, Mug",
      ])
    withExtendedLifetime(viewModel) {}
  }
}
