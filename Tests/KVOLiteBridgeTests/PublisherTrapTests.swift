import KVOLiteBridge
import KVOLiteTestSupport
import Testing

@Suite("publisher(for:) on a key path that cannot be observed")
struct PublisherTrapTests {
  @Test("publisher(for:) stops the program for a plain stored property, naming it")
  func publisher() async throws {
    let result = try #require(
      await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Person().publisher(for: \.unobserved)
      })
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains(
        "KVOLite: cannot observe Person.unobserved: it is not an @Observed property, so it never notifies (mark it @Observed)"
      ))
  }
}
