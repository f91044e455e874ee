import Foundation
import KVOLite
import KVOLiteTestSupport
import PackageModel
import Testing

// The PackageModel catalog's example (Sources/PackageModel/PackageModel.docc), with what it shows
// checked here; the catalog's own code is compiled and run as written by CI's
// Scripts/check-doc-blocks.

@Suite("PackageModel documentation example")
struct DocumentationExampleTests {
  @Test("the view model mirrors the model, edits it, and undo takes the edit back")
  func example() throws {
    let package = Package.sample()
    let viewModel = PackageViewModel(package: package)
    let history = ChangeHistory(root: package)

    viewModel.firstName = "Anna"  // package.recipient.firstName == "Anna"
    package.recipient.lastName = "Lee"  // viewModel.lastName == "Lee"
    try viewModel.addContent(title: "Lamp", quantity: 1, weight: 2.5)
    _ = history.undo()  // the lamp is gone again
    #expect(package.recipient.firstName == "Anna")
    #expect(viewModel.lastName == "Lee")
    #expect(package.contents.map(\.title) == ["Books", "Mug"])
    #expect(history.canRedo)
  }
}
