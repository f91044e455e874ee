@testable import PackageEditorCLI
import Testing

@Suite("package-editor")
struct EditorPlaceholderTests {
  @Test("the banner names the tool")
  func banner() {
    #expect(Banner.text == "package-editor: the REPL arrives with its own issue")
  }
}
