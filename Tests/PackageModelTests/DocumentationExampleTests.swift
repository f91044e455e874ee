import Foundation
import KVOLite
import KVOLiteTestSupport
import PackageModel
import Testing

// The PackageModel catalog's example (Sources/PackageModel/PackageModel.docc), run as printed
// there; `ArticleSnippetTests` in KVOLiteTests checks that the catalog's code is this code.

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
