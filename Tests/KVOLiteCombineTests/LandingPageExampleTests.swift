import KVOLiteCombine
import Testing

@Suite("KVOLiteCombine's landing page")
struct LandingPageExampleTests {
  @Test("a subject's repeated value is dropped by removeDuplicates")
  func removeDuplicates() {
    let names = PassthroughSubject<String, Never>()
    var seen: [String] = []
    let cancellable = names.removeDuplicates().sink { seen.append($0) }
    names.send("Ann")
    names.send("Ann")
    names.send("Bob")
    // seen == ["Ann", "Bob"]
    #expect(seen == ["Ann", "Bob"])
    _ = cancellable
  }
}
