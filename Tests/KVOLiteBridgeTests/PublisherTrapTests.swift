import KVOLiteBridge
import KVOLiteTestSupport
import Testing

@Suite("publisher(for:) on a key path that cannot be observed")
struct PublisherTrapTests {
  @Test("publisher(for:) stops the program for an undeclared typed key path")
  func publisher() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Person().publisher(for: \.undeclared)
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains("KVOLite: Person.undeclared is not declared in Person.observableKeys"))
  }
}
